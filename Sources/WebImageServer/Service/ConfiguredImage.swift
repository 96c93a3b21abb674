#if Server
    import Foundation
    import WebImage

    /// An image the operator configures (the watermark, the fallback image): bytes given at start,
    /// or a URL fetched as sources are.
    public enum ConfiguredImage: Sendable, Equatable {
        /// The image's bytes (from a file or base64 read at start).
        case data(Data)
        /// A URL, fetched through the service's source fetching (the address guard and the source
        /// cache included) when a request first needs it.
        case url(String)

        /// The image's bytes: as given, or fetched.
        func bytes(configuration: ServiceConfiguration, sources: SourceStore) async throws(ServiceError) -> Data {
            switch self {
            case .data(let bytes):
                return bytes
            case .url(let text):
                let url = try SourcePolicy(configuration: configuration).url(for: text)
                return try await sources.data(for: url)
            }
        }
    }
#endif
