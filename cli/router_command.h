// `infergate router`: an OpenAI-compatible front over replicas (docs/router.md).
#pragma once

namespace infergate {

int router_command(int argc, char** argv);

}  // namespace infergate
