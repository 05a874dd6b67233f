// An error a request earns, rendered in OpenAI's format so clients' error paths work unchanged:
// {"error": {"message", "type", "param", "code"}}.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace infergate {

class ApiError : public std::runtime_error {
 public:
  // `status` is the HTTP status; `param` names the offending request field ("" for none).
  ApiError(int status, const std::string& message, std::string param = "");

  int status() const { return status_; }
  const std::string& param() const { return param_; }
  // OpenAI's type for the status: invalid_request_error, authentication_error, ...
  std::string type() const;
  nlohmann::json to_json() const;

 private:
  int status_;
  std::string param_;
};

}  // namespace infergate
