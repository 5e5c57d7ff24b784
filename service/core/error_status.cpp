#include "service/core/error_status.h"

#include <google/protobuf/util/time_util.h>

#include "google/rpc/error_details.pb.h"

namespace foxgeese::service {

google::rpc::Status status_of(const ServiceError& error) {
    google::rpc::Status status;
    status.set_code(static_cast<int>(error.code));
    status.set_message(error.message);
    google::rpc::ErrorInfo info;
    info.set_reason(error.reason);
    info.set_domain(kErrorDomain);
    for (const auto& [key, value] : error.metadata)
        (*info.mutable_metadata())[key] = value;
    status.add_details()->PackFrom(info);
    if (!error.field.empty()) {
        google::rpc::BadRequest bad;
        auto* violation = bad.add_field_violations();
        violation->set_field(error.field);
        violation->set_description(error.message);
        violation->set_reason(error.reason);
        status.add_details()->PackFrom(bad);
    }
    if (error.retry_after) {
        google::rpc::RetryInfo retry;
        *retry.mutable_retry_delay() =
            google::protobuf::util::TimeUtil::MillisecondsToDuration(error.retry_after->count());
        status.add_details()->PackFrom(retry);
    }
    return status;
}

}  // namespace foxgeese::service
