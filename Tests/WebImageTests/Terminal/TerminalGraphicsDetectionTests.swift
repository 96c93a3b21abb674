import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Terminal graphics detection")
struct TerminalGraphicsDetectionTests {
    @Test(
        "the environment names kitty, sixel or nothing",
        arguments: [
            (["TERM": "xterm-kitty"], TerminalGraphics.kitty),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"], .kitty),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .kitty),
            (["TERM": "xterm-ghostty"], .kitty),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "ghostty"], .kitty),
            (["TERM": "foot"], .sixel),
            (["TERM": "mlterm"], .sixel),
            (["TERM": "xterm-256color"], .halfBlocks),
            (["TERM": "dumb"], .halfBlocks),
            ([:], .halfBlocks),
            // A multiplexer does not pass graphics through, whatever terminal is outside it.
            (["TERM": "tmux-256color", "KITTY_WINDOW_ID": "3"], .halfBlocks),
            (["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-1000/default,1,0"], .halfBlocks),
            (["TERM": "screen"], .halfBlocks),
        ])
    func fromEnvironment(environment: [String: String], expected: TerminalGraphics) {
        #expect(TerminalGraphics.detect(environment: environment) == expected)
    }

    @Test("only an ordinary terminal's name leaves the question to the terminal itself")
    func undecidedEnvironment() {
        #expect(TerminalGraphics.named(by: ["TERM": "xterm-256color"]) == nil)
        #expect(TerminalGraphics.named(by: ["TERM": "xterm-kitty"]) == .kitty)
        #expect(TerminalGraphics.named(by: ["TERM": "tmux-256color"]) == .halfBlocks)
        #expect(TerminalGraphics.named(by: ["TERM": "linux"]) == .halfBlocks)  // prints an APC query as text
    }

    @Test(
        "a reply to the query says which protocol the terminal speaks",
        arguments: [
            ("\u{1B}[?62;4;22c", TerminalGraphics?.some(.sixel)),
            ("\u{1B}[?64;1;2;4;6;9;15;18;21;22c", .sixel),
            ("\u{1B}[?62;22c", .halfBlocks),
            ("\u{1B}[?1;2c", .halfBlocks),
            ("\u{1B}[?62;14;44c", .halfBlocks),  // 14 and 44 are not 4
            ("\u{1B}_Gi=31337;OK\u{1B}\\\u{1B}[?62;22c", .kitty),
            ("\u{1B}_Gi=31337;OK\u{1B}\\", .kitty),
            ("\u{1B}_Gi=31337;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62;4c", .sixel),
            ("x\u{1B}[?62;4c", .sixel),  // a key typed before the reply
            ("", nil),
            ("\u{1B}[?62;4", nil),  // not complete yet
            ("\u{1B}[62;4c", nil),  // not a device attributes reply
        ])
    func fromReply(reply: String, expected: TerminalGraphics?) {
        #expect(TerminalGraphics.parse(queryReply: Array(reply.utf8)) == expected)
    }

    @Test("the query asks for kitty graphics and then the device attributes that end the reply")
    func querySequence() {
        let query = String(decoding: TerminalGraphics.querySequence, as: UTF8.self)
        #expect(query.hasPrefix("\u{1B}_Gi=31337,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"))
        #expect(query.hasSuffix("\u{1B}[c"))
    }

    @Test("no terminal, no query: nothing is written to a pipe and the answer comes at once")
    func noQueryOnAPipe() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        let started = Date()
        #expect(TerminalGraphics.query(input: descriptors[0], output: descriptors[1]) == nil)
        #expect(Date().timeIntervalSince(started) < 0.05)
        var waiting = pollfd(fd: descriptors[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&waiting, 1, 0) == 0)
        #expect(
            TerminalGraphics.detect(environment: ["TERM": "xterm"], input: descriptors[0], output: descriptors[1])
                == .halfBlocks)
    }
}
