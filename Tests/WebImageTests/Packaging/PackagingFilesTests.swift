import Foundation
import Testing
import WebImage

/// The files that install `webimage`: the Dockerfile's runtime stage installs exactly the
/// packages the .deb depends on, and the systemd unit runs what the package installs as the
/// user it makes.
@Suite("Packaging: .deb, Dockerfile, unit, version")
struct PackagingFilesTests {
    static let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The packages the Dockerfile's last stage installs with apt-get.
    static func dockerRuntimePackages() throws -> Set<String> {
        let dockerfile = try text("Dockerfile")
        let stages = dockerfile.components(separatedBy: "\nFROM ")
        let runtime = try #require(stages.last)
        let install = try #require(runtime.components(separatedBy: "apt-get install").dropFirst().first)
        let words = install.prefix { $0 != "&" }.split(whereSeparator: { $0.isWhitespace || $0 == "\\" })
        return Set(words.map(String.init).filter { !$0.hasPrefix("-") })
    }

    static func debDepends() throws -> Set<String> {
        let control = try text("deploy/debian/control")
        let line = try #require(control.split(separator: "\n").first { $0.hasPrefix("Depends: ") })
        return Set(
            line.dropFirst("Depends: ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    @Test func theContainerInstallsExactlyThePackagesTheDebDependsOn() throws {
        let docker = try Self.dockerRuntimePackages()
        let deb = try Self.debDepends()
        #expect(
            docker == deb,
            "only in the Dockerfile: \(docker.subtracting(deb)); only in Depends: \(deb.subtracting(docker))")
        // Every codec's runtime library is there.
        #expect(
            deb.isSuperset(of: [
                "libjpeg62-turbo", "libpng16-16", "libwebp7", "libgif7", "libavif15", "libheif1", "libjxl0.7",
                "libtiff6", "liblcms2-2", "zlib1g",
            ]))
    }

    @Test func theUnitRunsThePackagedBinaryAsTheUserThePackageMakes() throws {
        let unit = try Self.text("deploy/webimage.service")
        #expect(unit.contains("\nExecStart=/usr/bin/webimage serve "))
        #expect(unit.contains("\nUser=webimage\n") && unit.contains("\nEnvironmentFile=/etc/webimage/webimage.env\n"))
        #expect(try Self.text("deploy/debian/postinst").contains("adduser --system --group"))
        let dockerfile = try Self.text("Dockerfile")
        #expect(dockerfile.contains("USER webimage") && dockerfile.contains("WEBIMAGE_HOST=0.0.0.0"))
        #expect(dockerfile.contains("HEALTHCHECK") && dockerfile.contains("/health"))
        #expect(dockerfile.contains("--static-swift-stdlib"))
    }
}
