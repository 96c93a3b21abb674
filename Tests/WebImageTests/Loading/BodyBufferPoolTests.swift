import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

/// Response bodies live in recycled memory (``BodyBufferPool``): reused only once nothing holds
/// it, bounded, and invisible in the bytes callers get.
@Suite("Body buffer pool")
struct BodyBufferPoolTests {
    typealias Support = DownloaderTestSupport

    @Test("Sizes round up to a power of two, from 16 KiB")
    func sizeClasses() {
        #expect(BodyBufferPool.capacity(for: 0) == 16_384)
        #expect(BodyBufferPool.capacity(for: 1) == 16_384)
        #expect(BodyBufferPool.capacity(for: 16_384) == 16_384)
        #expect(BodyBufferPool.capacity(for: 16_385) == 32_768)
        #expect(BodyBufferPool.capacity(for: 100_000) == 131_072)
        #expect(BodyBufferPool.capacity(for: 5 << 20) == 8 << 20)
    }

    @Test("Freed memory serves the next body of its class, but not while a Data still holds it")
    func reuseWaitsForTheLastHolder() {
        let pool = BodyBufferPool(limit: 1 << 20)
        var storage: BodyStorage? = pool.take(atLeast: 100_000)
        let first = storage?.base
        let bytes: [UInt8] = Array(repeating: 7, count: 1_000)
        bytes.withUnsafeBytes { storage?.write($0, at: 0) }
        var data: Data? = storage?.data(count: bytes.count)
        storage = nil
        #expect(pool.pooledBytes == 0)

        // The Data still holds the first memory: another body gets memory of its own.
        let second = pool.take(atLeast: 100_000)
        #expect(second.base != first)
        #expect(data.map(Array.init) == bytes)

        data = nil
        #expect(pool.pooledBytes == 131_072)
        let third = pool.take(atLeast: 120_000)
        #expect(third.base == first)
        #expect(third.capacity == 131_072)
        #expect(pool.pooledBytes == 0)
    }

    @Test("The pool keeps at most its limit, and never memory of classes above 4 MiB")
    func bounded() {
        let pool = BodyBufferPool(limit: 40_000)
        var held = (0..<3).map { _ in pool.take(atLeast: 16_384) }
        held.removeAll()
        #expect(pool.pooledBytes == 32_768)

        var large: BodyStorage? = pool.take(atLeast: 5 << 20)
        #expect(large?.capacity == 8 << 20)
        large = nil
        #expect(pool.pooledBytes == 32_768)
        _ = (held, large)
    }

    @Test("Bodies come out byte for byte: chunked, over the up-front size, and while others reuse the pool")
    func bodiesStayIntact() async throws {
        try await Support.withOrigin { origin, downloader in
            var seed = 0
            /// Bytes that differ from body to body and along each one.
            func bytes(_ count: Int) -> Data {
                seed += 1
                return Data((0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 7) })
            }
            let chunked = bytes(700_000)
            let large = bytes(BodyReceiver.largestUpFrontReservation + 300_000)
            let small = (0..<4).map { _ in bytes(100_000) }
            origin.register(path: "/chunked.bin", body: chunked, contentType: "image/png")
            origin.register(path: "/large.bin", body: large, contentType: "image/png")
            for (index, body) in small.enumerated() {
                origin.register(path: "/small-\(index).bin", body: body, contentType: "image/png")
            }

            #expect(try await downloader.downloadData(with: origin.url("/chunked.bin?chunked=1")) == chunked)
            #expect(try await downloader.downloadData(with: origin.url("/large.bin")) == large)
            // Every other body is dropped, so the next one downloads into its memory; the ones
            // kept must not change while that happens.
            var kept: [Data] = []
            for index in small.indices {
                let body = try await downloader.downloadData(with: origin.url("/small-\(index).bin"))
                #expect(body == small[index])
                if index % 2 == 1 { kept.append(body) }
            }
            #expect(kept == [small[1], small[3]])
        }
    }
}
