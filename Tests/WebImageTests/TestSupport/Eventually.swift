/// Polls `condition` every few milliseconds until it holds or `timeout` passes, and returns
/// whether it held. Assert on the answer (`#expect(await eventually { ... })`) so that a timeout
/// fails the test instead of letting it go on as if the condition held.
///
/// The timeout is counted in polls, not against a deadline: on a loaded 2-core machine other
/// suites (and other builds) can hold the cooperative threads for many seconds, and a deadline
/// would run out during such a stall, before the work the test waits for had a chance to run. A
/// passing poll returns as soon as the condition holds, so only a failing one waits that long.
func eventually(timeout: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
    let tick = Duration.milliseconds(5)
    for _ in 0..<Int(timeout / tick) {
        if condition() { return true }
        try? await Task.sleep(for: tick)
    }
    return condition()
}
