/// A colour and how many of the sampled pixels it stands for.
struct PopulatedColor: Hashable, Sendable {
    var color: RGBA8
    var population: Int
}

/// Median-cut colour quantisation: the samples are split, box by box, at the median of the
/// channel (R, G, B or A) that varies most, until there are enough boxes; each box gives the
/// mean of its samples.
///
/// A split never falls between two equal values, so a box of one colour is never split and
/// an image of `n` colours gives exactly those `n` colours when `n` boxes are allowed.
enum MedianCut {
    private struct Box {
        var range: Range<Int>
        /// The channel (0...3) whose values spread the most, and that spread.
        var channel: Int
        var spread: Int

        /// Boxes with more samples and more spread are split first.
        var priority: Int { range.count * spread }
    }

    /// At most `maximumColors` colours standing for `samples`, the most populous first.
    static func quantize(_ samples: [RGBA8], maximumColors: Int) -> [PopulatedColor] {
        guard !samples.isEmpty else { return [] }
        var values = samples.map { SIMD4(Int($0.r), Int($0.g), Int($0.b), Int($0.a)) }
        var boxes = [box(values, 0..<values.count)]
        var scratch = values
        while boxes.count < maximumColors {
            guard
                let index = boxes.indices.filter({ boxes[$0].spread > 0 }).max(by: {
                    boxes[$0].priority < boxes[$1].priority
                })
            else { break }  // every box holds one colour
            let splitting = boxes[index]
            let channel = splitting.channel
            sortByChannel(&values, splitting.range, channel: channel, scratch: &scratch)
            let cut = cutIndex(values, splitting.range, channel: channel)
            boxes[index] = box(values, splitting.range.lowerBound..<cut)
            boxes.append(box(values, cut..<splitting.range.upperBound))
        }
        let colors = boxes.map { box in
            var sum = SIMD4<Int>()
            for i in box.range { sum &+= values[i] }
            let count = box.range.count
            let mean = (sum &+ count / 2) / count
            return PopulatedColor(
                color: RGBA8(
                    r: UInt8(clamping: mean[0]), g: UInt8(clamping: mean[1]), b: UInt8(clamping: mean[2]),
                    a: UInt8(clamping: mean[3])),
                population: count)
        }
        // Most populous first; equal populations in a fixed order, so results repeat exactly.
        return colors.sorted {
            ($0.population, $1.color.packed) > ($1.population, $0.color.packed)
        }
    }

    private static func box(_ values: [SIMD4<Int>], _ range: Range<Int>) -> Box {
        var low = SIMD4<Int>(repeating: 255)
        var high = SIMD4<Int>(repeating: 0)
        for i in range {
            low = pointwiseMin(low, values[i])
            high = pointwiseMax(high, values[i])
        }
        let spread = high &- low
        var channel = 0
        for c in 1..<4 where spread[c] > spread[channel] { channel = c }
        return Box(range: range, channel: channel, spread: spread[channel])
    }

    /// Sorts `values[range]` by `channel` (0...255): a counting sort, linear in the range, where a
    /// comparison sort with a closure cost most of `/info`'s `dominant_colors` time. Which samples
    /// end up in which box does not depend on the order of equal values (a cut never falls
    /// between two of them), so any correct sort gives the same colours.
    private static func sortByChannel(
        _ values: inout [SIMD4<Int>], _ range: Range<Int>, channel: Int, scratch: inout [SIMD4<Int>]
    ) {
        var starts = [Int](repeating: 0, count: 257)
        for i in range { starts[min(max(values[i][channel], 0), 255) + 1] += 1 }
        for v in 1...256 { starts[v] += starts[v - 1] }
        for i in range {
            let v = min(max(values[i][channel], 0), 255)
            scratch[range.lowerBound + starts[v]] = values[i]
            starts[v] += 1
        }
        values.replaceSubrange(range, with: scratch[range])
    }

    /// Where to split a box sorted by `channel`: the boundary between two different values
    /// nearest its middle.
    private static func cutIndex(_ values: [SIMD4<Int>], _ range: Range<Int>, channel: Int) -> Int {
        let middle = range.lowerBound + range.count / 2
        let median = values[middle][channel]
        // The first sample with the median value, and the first past it.
        var first = middle
        while first > range.lowerBound, values[first - 1][channel] == median { first -= 1 }
        var past = middle
        while past < range.upperBound, values[past][channel] == median { past += 1 }
        if first == range.lowerBound { return past }
        if past == range.upperBound { return first }
        return middle - first <= past - middle ? first : past
    }
}

extension RGBA8 {
    /// R, G, B, A in one number, for ordering.
    var packed: UInt32 {
        UInt32(r) << 24 | UInt32(g) << 16 | UInt32(b) << 8 | UInt32(a)
    }
}
