#if ColorManagement
    /// The little 3×3 arithmetic the matrix-shaper conversion needs; rows of columns, as written.
    enum Matrix3 {
        static func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
            (0..<3).map { row in (0..<3).map { column in (0..<3).reduce(0) { $0 + a[row][$1] * b[$1][column] } } }
        }

        /// Nil for a singular matrix (a profile whose colorants are not independent).
        static func inverse(_ m: [[Double]]) -> [[Double]]? {
            let cofactors = (0..<3).map { row in
                (0..<3).map { column in
                    let r = [0, 1, 2].filter { $0 != row }
                    let c = [0, 1, 2].filter { $0 != column }
                    let minor = m[r[0]][c[0]] * m[r[1]][c[1]] - m[r[0]][c[1]] * m[r[1]][c[0]]
                    return (row + column) % 2 == 0 ? minor : -minor
                }
            }
            let determinant = (0..<3).reduce(0) { $0 + m[0][$1] * cofactors[0][$1] }
            guard determinant.isFinite, abs(determinant) > 1e-9 else { return nil }
            return (0..<3).map { row in (0..<3).map { column in cofactors[column][row] / determinant } }
        }
    }
#endif
