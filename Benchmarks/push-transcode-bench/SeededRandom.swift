/// A small, fast, seeded random number generator (SplitMix64), so that the same seed and size
/// always generate the same corpus bytes on every platform and Swift version (the standard
/// library's `SystemRandomNumberGenerator` cannot be seeded).
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  // Safe because SplitMix64 is defined modulo 2^64: its multiplies and additions wrap by design.
  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 ^ 0xD1B5_4A32_D192_ED03 }

  mutating func next() -> UInt64 {
    // Safe because SplitMix64 is defined modulo 2^64 (see `init`).
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `range` (closed), without the standard library's rejection sampling
  /// so that the stream is stable across versions; the bias is negligible for small ranges.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound + 1)
    return range.lowerBound + Int(next() % span)
  }

  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool { unit() < p }

  /// A uniform double in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

  /// Picks an index by integer weights.
  mutating func weighted(_ weights: [Int]) -> Int {
    var roll = int(0...weights.reduce(0, +) - 1)
    for (index, weight) in weights.enumerated() {
      if roll < weight { return index }
      roll -= weight
    }
    return weights.count - 1
  }

  mutating func alphanumeric(_ count: Int, upper: Bool = false) -> String {
    let alphabet = Array(
      upper ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" : "abcdefghijklmnopqrstuvwxyz0123456789")
    return String((0..<count).map { _ in alphabet[int(0...alphabet.count - 1)] })
  }

  mutating func hex(_ count: Int) -> String {
    let digits = Array("0123456789abcdef")
    return String((0..<count).map { _ in digits[int(0...15)] })
  }
}
