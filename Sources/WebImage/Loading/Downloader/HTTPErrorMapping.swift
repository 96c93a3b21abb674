import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Maps whatever AsyncHTTPClient, NIO or the TLS stack throws to a ``WebImageError``, so that
/// the blocklist and retry rules see the kinds URLSession would report.
enum HTTPErrorMapping {
    static func webImageError(_ error: any Error, url: URL) -> WebImageError {
        if let error = error as? WebImageError { return error }
        if error is CancellationError { return .cancelled }
        let where_ = url.absoluteString
        func failure(_ kind: TransferFailure.Kind, _ detail: String) -> WebImageError {
            .transferFailed(TransferFailure(kind, "\(where_): \(detail)"))
        }
        switch error {
        case let error as HTTPClientError:
            return clientError(error, url: url, failure: failure)
        case let error as NIOConnectionError:
            if let dns = error.dnsAError ?? error.dnsAAAAError {
                return failure(.cannotFindHost, "\(dns)")
            }
            if let first = error.connectionErrors.first {
                return webImageError(first.error, url: url)
            }
            return failure(.cannotConnect, "\(error)")
        case let error as SocketAddressError:
            return failure(.cannotFindHost, "\(error)")
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: return failure(.cannotConnect, "\(error)")
            case ETIMEDOUT: return failure(.timedOut, "\(error)")
            default: return failure(.connectionLost, "\(error)")
            }
        case let error as ChannelError:
            if case .connectTimeout = error { return failure(.timedOut, "connecting took too long") }
            return failure(.connectionLost, "\(error)")
        case let error as InflateError:
            return failure(error == .limit ? .responseTooLarge : .badServerResponse, error.description)
        case let error as HTTPParserError:
            // The connection closed in the middle of a message: a body shorter than declared.
            if error == .invalidEOFState {
                return failure(.connectionLost, "the server closed the connection before the response was complete")
            }
            return failure(.badServerResponse, "\(error)")
        default:
            // TLS errors come from NIOSSL types; they are matched by module so that every one
            // of them (handshake, certificate, unclean shutdown) counts as a TLS failure.
            if String(reflecting: type(of: error)).hasPrefix("NIOSSL.") {
                return failure(.secureConnectionFailed, "\(error)")
            }
            return failure(.badServerResponse, "\(error)")
        }
    }

    private static func clientError(
        _ error: HTTPClientError, url: URL, failure: (TransferFailure.Kind, String) -> WebImageError
    ) -> WebImageError {
        switch error {
        case .cancelled, .requestStreamCancelled: .cancelled
        case .readTimeout: failure(.timedOut, "no data for longer than the download timeout")
        case .connectTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout,
            .writeTimeout:
            failure(.timedOut, "\(error)")
        case .remoteConnectionClosed, .bodyLengthMismatch:
            failure(.connectionLost, "the server closed the connection before the response was complete")
        case .invalidURL, .emptyHost, .emptyScheme:
            .invalidURL(url.absoluteString)
        case .alreadyShutdown:
            .invalidDownloadOperation("the downloader was shut down")
        default:
            failure(.badServerResponse, "\(error)")
        }
    }
}
