// The body of every request-parser fuzz target: parse the input for each served model shape and
// check the outcome. A finding is any exception other than ApiError, a broken invariant
// (request_invariants.h), or what ASan/UBSan catch; each aborts, so libFuzzer reports it.
#pragma once

#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>

#include "common/openai/openai_error.h"
#include "fuzz/fuzz_failure.h"
#include "fuzz/request_invariants.h"
#include "fuzz/served_model_shapes.h"
#include "server/openai/completion_request.h"

namespace infergate::fuzz {

// `parse(body, model)` returns a CompletionRequest or throws ApiError; `check_accepted(request,
// model, body)` checks what it returned.
template <typename Parse, typename CheckAccepted>
void fuzz_request_parser(std::string_view body, const char* parser_name, Parse parse,
                         CheckAccepted check_accepted) {
  for (const ServedModel& model : served_model_shapes()) {
    set_failing_model(model.name);
    try {
      check_accepted(parse(body, model), model, body);
    } catch (const ApiError& e) {
      check_refusal(e, body);
    } catch (const std::exception& e) {
      fail(std::string(parser_name) + " threw " + typeid(e).name() + " (not ApiError): " + e.what(),
           body);
    } catch (...) {
      fail(std::string(parser_name) + " threw a non-std exception", body);
    }
  }
}

}  // namespace infergate::fuzz
