// node-llama-cpp for the interop scripts: resolved from $INFERGATE_NODE_MODULES (a folder
// holding node_modules/, as ci/node-llama-cpp.sh installs it) or else the usual way, and
// llama.cpp's CPU backend from the prebuilt binaries in the package only (never a download or a
// compile).
import path from "node:path";
import {createRequire} from "node:module";
import {pathToFileURL} from "node:url";

export async function importNodeLlamaCpp() {
  const root = process.env.INFERGATE_NODE_MODULES;
  if (!root) return import("node-llama-cpp");
  const resolved = createRequire(path.join(path.resolve(root), "package.json"))
      .resolve("node-llama-cpp");
  return import(pathToFileURL(resolved).href);
}

export async function getCpuLlama() {
  const {getLlama, LlamaLogLevel} = await importNodeLlamaCpp();
  return getLlama({gpu: false, build: "never", skipDownload: true, logLevel: LlamaLogLevel.error});
}
