import Foundation

/// Which source URLs the service fetches: http and https with a host, and, when prefixes are
/// configured, only those starting with one of them.
struct SourcePolicy {
    let configuration: ServiceConfiguration

    func url(for source: String) throws(ServiceError) -> URL {
        guard let url = URL(string: source), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw .badRequest("the source must be an http or https URL")
        }
        let prefixes = configuration.allowedSourcePrefixes
        guard prefixes.isEmpty || prefixes.contains(where: { source.hasPrefix($0) }) else {
            throw .forbidden("the source is not among the allowed sources")
        }
        return url
    }
}
