/// What an ``ImageDownloaderConfig/requestValidator`` decided about a URL it lets through.
public struct RequestApproval: Sendable, Equatable {
    /// The IP address to connect to for the URL's host, in place of resolving the name again;
    /// nil resolves it as usual. TLS still asks for and verifies the certificate of the name.
    public var connectAddress: String?

    /// Connects wherever the host resolves to when the request is sent.
    public static let resolveAsUsual = RequestApproval(connectAddress: nil)

    /// Connects to `address` (an IPv4 or IPv6 literal) for the URL's host: the address the
    /// validator checked is the address the request goes to, so a name whose answer changes
    /// between the check and the connection (DNS rebinding) cannot move it elsewhere.
    public static func connect(to address: String) -> RequestApproval {
        RequestApproval(connectAddress: address)
    }
}
