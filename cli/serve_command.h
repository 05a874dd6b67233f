// `infergate serve`: an OpenAI-compatible HTTP server over the in-process engine (docs/server.md).
#pragma once

namespace infergate {

int serve_command(int argc, char** argv);

}  // namespace infergate
