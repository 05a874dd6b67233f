#include "bench/metrics/request_record.h"

namespace infergate {

const char* request_status_name(RequestStatus status) {
  switch (status) {
    case RequestStatus::kOk:
      return "ok";
    case RequestStatus::kError:
      return "error";
    case RequestStatus::kAborted:
      return "aborted";
  }
  return "?";
}

}  // namespace infergate
