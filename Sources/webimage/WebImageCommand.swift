import ArgumentParser

@main
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Fetch, cache, decode, inspect and convert images.",
        subcommands: [])
}
