import Foundation

/// HTTP dates (`Expires`, `Date`, `Retry-After`, a cookie's `Expires`), read by hand.
///
/// One reader takes the IMF-fixdate form and the two obsolete forms RFC 9110 (5.6.7) says
/// recipients must accept, and the variants servers send in `Set-Cookie`
/// (`Wed, 15-Nov-2023 22:13:20 GMT`), by the cookie-date algorithm of RFC 6265 (5.1.1): the text
/// splits into tokens at delimiters, and the first token that reads as a time (`h:m:s`), a day
/// of the month (1–2 digits), a month (the first three letters of its English name) and a year
/// (2–4 digits) is taken, each token tried in that order. Anything else (the weekday, the zone)
/// is skipped: an HTTP date is always GMT. Two-digit years 70–99 mean 1970–1999 and 00–69 mean
/// 2000–2069. A date that does not exist (30 February, hour 24) reads as nil.
///
/// Not a `DateFormatter`: one is not `Sendable`, and building one per call costs far more than
/// this scan, once or twice per response that carries `Expires`.
package enum HTTPDate {
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { Fields(reading: $0) }.date
    }

    /// `date` in the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`), whole seconds.
    package static func format(_ date: Date) -> String {
        // Clamped to ±10^12 s (beyond year 30,000), so that the calendar arithmetic below cannot overflow.
        let seconds = Int(clamping: date.timeIntervalSince1970.clamped(to: -1e12...1e12), rounding: .down)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil-from-days.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday (index 4)
        let names = (
            ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
            ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        )
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(names.0[weekday]), \(two(day)) \(names.1[month - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// The parts of a date, filled from the first token that reads as each.
    private struct Fields {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?

        init(reading bytes: UnsafeBufferPointer<UInt8>) {
            var start = 0
            while start < bytes.count {
                guard !HTTPDate.isDelimiter(bytes[start]) else {
                    start += 1
                    continue
                }
                var end = start
                while end < bytes.count, !HTTPDate.isDelimiter(bytes[end]) { end += 1 }
                take(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
        }

        private mutating func take(_ token: UnsafeBufferPointer<UInt8>) {
            var reader = DigitReader(token)
            if time == nil, let hour = reader.number(maxDigits: 2), reader.skip(":"),
                let minute = reader.number(maxDigits: 2), reader.skip(":"),
                let second = reader.number(maxDigits: 2), reader.endsNumber
            {
                time = (hour, minute, second)
                return
            }
            reader = DigitReader(token)
            if day == nil, let value = reader.number(maxDigits: 2), reader.endsNumber {
                day = value
                return
            }
            if month == nil, let value = HTTPDate.month(token) {
                month = value
                return
            }
            reader = DigitReader(token)
            if year == nil, let value = reader.number(maxDigits: 4), reader.position >= 2, reader.endsNumber {
                year = value
            }
        }

        /// The instant the fields name in GMT, or nil when no such date exists.
        var date: Date? {
            guard let time, let day, let month, var year else { return nil }
            if year < 70 {
                year += 2000
            } else if year < 100 {
                year += 1900
            }
            guard year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59, day >= 1,
                day <= HTTPDate.daysIn(month: month, year: year)
            else { return nil }
            let days = HTTPDate.daysSinceEpoch(year: year, month: month, day: day)
            let seconds = ((days * 24 + time.hour) * 60 + time.minute) * 60 + time.second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// Reads leading decimal digits of a token.
    private struct DigitReader {
        let token: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ token: UnsafeBufferPointer<UInt8>) { self.token = token }

        /// 1 to `maxDigits` digits as a number; nil if there are none or more than `maxDigits`.
        mutating func number(maxDigits: Int) -> Int? {
            let first = position
            var value = 0
            while position < token.count, let digit = HTTPDate.digit(token[position]) {
                guard position - first < maxDigits else { return nil }
                value = value * 10 + digit
                position += 1
            }
            return position > first ? value : nil
        }

        mutating func skip(_ separator: Unicode.Scalar) -> Bool {
            guard position < token.count, token[position] == UInt8(ascii: separator) else { return false }
            position += 1
            return true
        }

        /// Whether the number just read ends the token or is followed by a non-digit (RFC 6265
        /// lets any text follow, as in `1994GMT`).
        var endsNumber: Bool { position == token.count || HTTPDate.digit(token[position]) == nil }
    }

    /// RFC 6265's delimiters: tab, space to `/`, `;` to `@`, `[` to `` ` ``, `{` to `~`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// The months' three-letter names, lowercase, as 24-bit keys (first letter highest).
    private static let monthKeys: [UInt32] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ].map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

    /// 1–12 when the token starts with a month's three-letter name (any case).
    private static func month(_ token: UnsafeBufferPointer<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        // Setting bit 5 lower-cases an ASCII letter and turns no other byte into one.
        let key = token.prefix(3).reduce(UInt32(0)) { $0 << 8 | UInt32($1 | 0x20) }
        return monthKeys.firstIndex(of: key).map { $0 + 1 }
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date (proleptic Gregorian calendar).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        var days = daysBefore(year: year) - daysBefore(year: 1970)
        for earlier in 1..<month { days += daysIn(month: earlier, year: year) }
        return days + day - 1
    }

    /// Days from 0001-01-01 to the first day of `year`.
    private static func daysBefore(year: Int) -> Int {
        let past = year - 1
        return past * 365 + past / 4 - past / 100 + past / 400
    }
}
