import WebImage

// The module's sources are all behind the package's `Server` trait, so that a build without it
// fetches and builds neither Hummingbird nor the rest of the server's dependencies. Depending on
// this product without the trait is a mistake, said here rather than as missing symbols.
#if !Server
    #error(
        "WebImageServer is built only with swift-web-image's Server trait: add \"Server\" to the traits your Package.swift gives it"
    )
#endif
