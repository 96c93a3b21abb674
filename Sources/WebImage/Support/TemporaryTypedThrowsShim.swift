// Temporary: removed when the typed-throws coders land.
func shimTyped<T>(_ body: () throws -> T) throws(WebImageError) -> T {
    do { return try body() } catch let error as WebImageError { throw error } catch {
        throw .badImageData("\(error)")
    }
}
