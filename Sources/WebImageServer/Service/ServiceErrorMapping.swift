#if Server
    import WebImage

    /// The status a library error becomes: the source's own 404, 502 for its other failures, 504
    /// for its timeouts, 422 for bytes that are not an image this service decodes or a source
    /// above the size limit. Messages name what failed, never a credential or a file path.
    enum ServiceErrorMapping {
        static func map(_ error: WebImageError) -> ServiceError {
            switch error.code {
            case .invalidDownloadStatusCode:
                let status = error.statusCode ?? 0
                if status == 404 || status == 410 { return .notFound("the source answered \(status)") }
                return .badGateway("the source answered \(status)")
            case .invalidDownloadContentType:
                return .unprocessable("the source is not an image (Content-Type \(error.contentType ?? "none"))")
            case .badImageData:
                return .unprocessable("the source is not an image this service can decode")
            case .unsupportedFormat:
                return .unprocessable("the source's format cannot be decoded here")
            case .imageTooLarge:
                let limit = error.pixelLimit
                return .unprocessable(
                    "the source is \(limit?.width ?? 0)x\(limit?.height ?? 0) pixels, above the limit of \(limit?.limit ?? 0)"
                )
            case .transferFailed:
                switch error.transferFailure?.kind {
                case .timedOut: return .gatewayTimeout("the source did not answer in time")
                case .responseTooLarge: return .unprocessable("the source is larger than allowed")
                case .cannotFindHost: return .badGateway("the source's host was not found")
                default:
                    return .badGateway(
                        "the source could not be fetched (\(error.transferFailure?.kind.rawValue ?? "error"))")
                }
            case .requestRefused:
                return .forbidden(error.message)
            case .invalidURL:
                return .badRequest("the source is not a valid URL")
            case .cancelled:
                return .cancelled
            case .encodingFailed:
                return .unprocessable("the result could not be encoded: \(error.message)")
            case .invalidArgument:
                return .badRequest("the processing options do not fit this image: \(error.message)")
            default:
                return .internalError("processing failed")
            }
        }
    }
#endif
