// `infergate serve`: an OpenAI-compatible HTTP server over the in-process engine (docs/server.md).
#pragma once

namespace infergate {

// The exit status when the engine failed at a step and could not go on (EX_SOFTWARE): every
// request then ended with an error, and stderr has one line naming the cause.
inline constexpr int kExitEngineFailed = 70;

int serve_command(int argc, char** argv);

}  // namespace infergate
