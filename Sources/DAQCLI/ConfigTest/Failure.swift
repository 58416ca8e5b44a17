/// One assertion that did not hold: where it is written, what it wanted, what happened.
struct Failure {
    var place: Place
    /// The assertion's key path in the case (`expect.stats.count`).
    var key: String
    var expected: String
    var actual: String
}
