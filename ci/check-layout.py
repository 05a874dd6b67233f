#!/usr/bin/python3
"""Fails when an #include breaks the dependency graph that docs/architecture.md declares, or
when the model is defined outside its one home.

The graph is the fenced block after the line "<!-- layout graph -->" in docs/architecture.md:
one line per unit, "unit -> dependency ...". A unit is a folder (its files, less those of a
longer unit inside it). A file may include its own unit and anything its unit reaches through
the graph; the graph itself must be acyclic, and every source file must belong to a unit.

The model's homes are the fenced block after "<!-- model homes -->": "model FILE" (the one
transformer, written against backend ops), "ops UNIT..." (the backends' op implementations)
and "layer-kernels HEADER..." (the kernels a forward pass is made of). Under engine/ only the
ops units may include a layer kernel, and the model includes none, so a second forward pass
cannot grow beside the first.

Usage: ci/check-layout.py [ROOT]   (exit 0: layout holds; 1: violations listed; 2: bad graph)
"""
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".h", ".cc", ".cu", ".cuh"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
MARKER = "<!-- layout graph -->"
HOMES_MARKER = "<!-- model homes -->"


def fail(code, message):
    print(f"check-layout: {message}", file=sys.stderr)
    sys.exit(code)


def read_graph(doc):
    text = doc.read_text(encoding="utf-8")
    if MARKER not in text:
        fail(2, f"{doc}: no '{MARKER}' line before the graph block")
    block = text.split(MARKER, 1)[1].split("```", 2)
    if len(block) < 3:
        fail(2, f"{doc}: no fenced block after '{MARKER}'")
    graph = {}
    for number, line in enumerate(block[1].splitlines(), 1):
        if not line.strip():
            continue
        unit, arrow, deps = line.partition("->")
        if not arrow:
            fail(2, f"{doc}: graph line '{line.strip()}' is not 'unit -> dependency ...'")
        graph[unit.strip()] = deps.split()
    for unit, deps in graph.items():
        for dep in deps:
            if dep not in graph:
                fail(2, f"{doc}: {unit} depends on {dep}, which has no line of its own")
    return graph


def read_homes(doc):
    text = doc.read_text(encoding="utf-8")
    if HOMES_MARKER not in text:
        fail(2, f"{doc}: no '{HOMES_MARKER}' line before the model's homes")
    block = text.split(HOMES_MARKER, 1)[1].split("```", 2)
    homes = {}
    for line in block[1].splitlines():
        if line.strip():
            key, *values = line.split()
            homes[key] = values
    for key in ("model", "ops", "layer-kernels"):
        if key not in homes:
            fail(2, f"{doc}: the model's homes name no '{key}'")
    return homes


def model_home_problems(rel, unit, text, homes):
    """A layer kernel included under engine/ outside the ops units, or by the model itself."""
    if not rel.startswith("engine/"):
        return []
    problems = []
    for match in INCLUDE.finditer(text):
        target = match.group(1)
        if target not in homes["layer-kernels"]:
            continue
        line = text.count("\n", 0, match.start()) + 1
        if rel in homes["model"]:
            problems.append(f"{rel}:{line}: the model includes the layer kernel {target}; it "
                            "calls its backend's ops (engine/forward/forward_ops.h)")
        elif unit not in homes["ops"]:
            problems.append(f"{rel}:{line}: {unit} includes the layer kernel {target}: a "
                            "forward pass lives only in the model and its backends' ops "
                            "(docs/architecture.md, model homes)")
    return problems


def find_cycle(graph):
    state = {}

    def visit(unit, path):
        state[unit] = "open"
        for dep in graph[unit]:
            if state.get(dep) == "open":
                return path + [unit, dep]
            if dep not in state:
                cycle = visit(dep, path + [unit])
                if cycle:
                    return cycle
        state[unit] = "done"
        return None

    for unit in graph:
        if unit not in state:
            cycle = visit(unit, [])
            if cycle:
                return cycle[cycle.index(cycle[-1]):]
    return None


def reach(graph):
    closure = {}
    for unit in graph:
        seen, stack = set(), list(graph[unit])
        while stack:
            dep = stack.pop()
            if dep not in seen:
                seen.add(dep)
                stack.extend(graph[dep])
        closure[unit] = seen | {unit}
    return closure


def unit_of(path, units):
    parts = pathlib.PurePosixPath(path).parts[:-1]
    for n in range(len(parts), 0, -1):
        candidate = "/".join(parts[:n])
        if candidate in units:
            return candidate
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    graph = read_graph(root / "docs" / "architecture.md")
    homes = read_homes(root / "docs" / "architecture.md")
    cycle = find_cycle(graph)
    if cycle:
        fail(2, "the graph in docs/architecture.md has a cycle: " + " -> ".join(cycle))
    closure = reach(graph)
    problems = []
    for unit in sorted(graph):
        folder = root / unit
        if not folder.is_dir():
            problems.append(f"{unit}: the graph names a folder that does not exist")
    for path in sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("build/", ".")) or "/build/" in rel:
            continue
        unit = unit_of(rel, graph)
        if unit is None:
            problems.append(f"{rel}: in no unit of the graph (docs/architecture.md)")
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        problems.extend(model_home_problems(rel, unit, text, homes))
        for match in INCLUDE.finditer(text):
            target = match.group(1)
            target_unit = unit_of(target, graph)
            if target_unit is None or target_unit in closure[unit]:
                continue  # a generated header or a relative include; or allowed
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{rel}:{line}: {unit} includes {target} ({target_unit}), "
                            f"which {unit} does not depend on")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        fail(1, f"{len(problems)} include(s) break the layout; fix the include or, if the "
                "dependency is meant, add it to the graph in docs/architecture.md")
    print(f"check-layout: {len(graph)} units, every include follows the graph; the model "
          f"lives in {homes['model'][0]}")


if __name__ == "__main__":
    main()
