#include "common/openai/openai_error.h"

namespace infergate {

ApiError::ApiError(int status, const std::string& message, std::string param)
    : std::runtime_error(message), status_(status), param_(std::move(param)) {}

std::string ApiError::type() const {
  switch (status_) {
    case 401:
      return "authentication_error";
    case 404:
      return "not_found_error";
    case 500:
      return "internal_server_error";
    default:
      return "invalid_request_error";
  }
}

nlohmann::json ApiError::to_json() const {
  return {{"error",
           {{"message", what()},
            {"type", type()},
            {"param", param_.empty() ? nlohmann::json() : nlohmann::json(param_)},
            {"code", status_}}}};
}

}  // namespace infergate
