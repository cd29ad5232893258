extension Array {
  /// Empties the array and keeps its storage, one element at a time. For the few elements of a
  /// line's arrays (recipients, body pieces) this is cheaper than
  /// `removeAll(keepingCapacity: true)`, a generic range replacement; each step is constant time,
  /// so a long array costs its length, as there.
  @inline(__always)
  mutating func removeAllKeepingStorage() {
    while !isEmpty { removeLast() }
  }
}
