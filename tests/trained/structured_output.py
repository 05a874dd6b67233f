#!/usr/bin/python3
"""Structured output on the trained model, judged by an outside validator: `infergate serve
--model trained` answers chat requests under a set of JSON schemas (nested objects, arrays,
enums, integers with bounds, numbers, strings with escapes, nullable and anyOf members, a
recursive $defs), sampled at temperature 1 with several seeds; every answer must end by itself
(finish_reason stop) and parse and validate under its schema with python3-jsonschema. Also a
regex, a choice and a GBNF grammar, and the server's refusal of an unsatisfiable schema.

Usage: structured_output.py INFERGATE   (exit 77 when python3-jsonschema is missing)
"""
import json
import re
import subprocess
import sys
import urllib.error
import urllib.request

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed")
    sys.exit(77)

SCHEMAS = {
    "person": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 24},
            "age": {"type": "integer", "minimum": 0, "maximum": 130},
            "email": {"type": ["string", "null"], "maxLength": 30},
        },
        "required": ["name", "age"],
    },
    "order": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "items": {
                "type": "array",
                "minItems": 1,
                "maxItems": 3,
                "items": {
                    "type": "object",
                    "properties": {
                        "sku": {"type": "string", "maxLength": 12},
                        "qty": {"type": "integer", "minimum": 1, "maximum": 99},
                        "price": {"type": "number"},
                    },
                    "required": ["sku", "qty", "price"],
                },
            },
            "status": {"enum": ["new", "paid", "shipped", None, 3]},
        },
        "required": ["id", "items", "status"],
    },
    "code": {
        "type": "object",
        "properties": {
            "language": {"const": "python"},
            "source": {"type": "string", "maxLength": 60},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 8}, "maxItems": 4},
            "ok": {"type": "boolean"},
        },
        "required": ["language", "source", "tags", "ok"],
    },
    "shape": {
        "anyOf": [
            {"type": "object", "properties": {"circle": {"type": "number"}}, "required": ["circle"]},
            {"type": "array", "items": {"type": "integer"}, "maxItems": 4},
        ]
    },
    "tree": {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "maxLength": 10},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 2},
                },
                "required": ["name", "children"],
            }
        },
        "$ref": "#/$defs/node",
    },
}
SEEDS = range(4)
MAX_TOKENS = 600


def start(infergate):
    server = subprocess.Popen([infergate, "serve", "--model", "trained", "--port", "0", "--threads", "2"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in server.stdout:
        found = re.search(r"listening on (http://\S+)", line)
        if found:
            return server, found.group(1)
    server.wait()
    sys.exit("FAIL: the server did not start")


def post(url, path, body):
    request = urllib.request.Request(url + path, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def chat(url, prompt, extra, seed):
    body = {"messages": [{"role": "user", "content": prompt}], "max_tokens": MAX_TOKENS,
            "temperature": 1.0, "seed": seed, **extra}
    status, answer = post(url, "/v1/chat/completions", body)
    if status != 200:
        sys.exit(f"FAIL: {status} {answer}")
    choice = answer["choices"][0]
    return choice["message"]["content"], choice["finish_reason"]


def main():
    server, url = start(sys.argv[1])
    failures = []
    try:
        for name, schema in SCHEMAS.items():
            fmt = {"response_format": {"type": "json_schema",
                                       "json_schema": {"name": name, "schema": schema}}}
            for seed in SEEDS:
                text, reason = chat(url, f"Write the {name} as JSON.", fmt, seed)
                try:
                    if reason != "stop":
                        raise ValueError(f"finish_reason {reason}")
                    jsonschema.validate(json.loads(text), schema)
                except (ValueError, jsonschema.ValidationError) as e:
                    failures.append(f"{name} seed {seed}: {e}: {text!r}")
        for extra, check in [
            ({"guided_regex": r"[A-Z][a-z]{1,8} \d{1,3}(\.\d{2})?"},
             lambda t: re.fullmatch(r"[A-Z][a-z]{1,8} \d{1,3}(\.\d{2})?", t)),
            ({"guided_choice": ["yes", "no", "it depends"]}, lambda t: t in ("yes", "no", "it depends")),
            ({"guided_grammar": 'root ::= "def " [a-z_]{1,12} "(" [a-z]{0,6} "):"'},
             lambda t: re.fullmatch(r"def [a-z_]{1,12}\([a-z]{0,6}\):", t)),
        ]:
            for seed in SEEDS:
                text, reason = chat(url, "Answer.", extra, seed)
                if reason != "stop" or not check(text):
                    failures.append(f"{list(extra)[0]} seed {seed}: {reason} {text!r}")
        status, answer = post(url, "/v1/chat/completions", {
            "messages": [{"role": "user", "content": "x"}],
            "response_format": {"type": "json_schema", "json_schema": {
                "name": "never", "schema": {"type": "integer", "minimum": 5, "maximum": 1}}}})
        if status != 400 or "response_format.json_schema.schema" not in answer["error"]["param"]:
            failures.append(f"an unsatisfiable schema gave {status} {answer}")
        status, _ = post(url, "/v1/chat/completions",
                         {"messages": [{"role": "user", "content": "x"}], "max_tokens": 2})
        if status != 200:
            failures.append("the server stopped serving after the refusal")
    finally:
        server.terminate()
        server.wait()
    runs = len(SCHEMAS) * len(SEEDS) + 3 * len(SEEDS)
    for failure in failures:
        print("FAIL:", failure)
    print(f"{runs - len(failures)} of {runs} structured answers valid")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
