#if Server
    import WebImage

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The system's name resolution, as the service's resolver runs it on its own threads.
    enum HostLookup {
        /// The addresses `host` resolves to (4 or 16 bytes each), by `getaddrinfo`; empty when it
        /// does not resolve. Blocks the calling thread for as long as the name servers take.
        static func addresses(of host: String) -> [[UInt8]] {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
                hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
            defer { freeaddrinfo(first) }
            var addresses: [[UInt8]] = []
            var node: UnsafeMutablePointer<addrinfo>? = first
            while let current = node {
                if let socket = current.pointee.ai_addr {
                    switch Int32(socket.pointee.sa_family) {
                    case AF_INET:
                        socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                            var value = v4.pointee.sin_addr
                            addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                        }
                    case AF_INET6:
                        socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                            var value = v6.pointee.sin6_addr
                            addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                        }
                    default:
                        break
                    }
                }
                node = current.pointee.ai_next
            }
            return addresses
        }
    }
#endif
