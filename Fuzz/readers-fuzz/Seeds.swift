// Small valid inputs of every target, written by the DAQTesting writers the tests use, so the
// fuzzer starts from files that get past every header. scripts/fuzz-readers.sh adds the hostile
// files of Tests/Fixtures/hostile (forged zip64 records, info.txt numbers, fill bombs).
import DAQTesting
import Foundation

func writeSeeds(to dir: String) throws {
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    var cwa = CWAWriter()
    cwa.seconds = 3
    try cwa.write(to: dir + "/seed.cwa")
    var gt3x = GT3XWriter()
    gt3x.seconds = 2
    try gt3x.write(to: dir + "/seed.gt3x")
    // The zip64 end records, so mutations reach their 64-bit counts, sizes and offsets.
    gt3x.zip64 = true
    try gt3x.write(to: dir + "/seed-zip64.gt3x")
    // Stored, not deflated: info.txt's text lies in the file as is, where the structured
    // mutation (Mutator.swift) writes hostile numbers over its values.
    gt3x.method = .stored
    try gt3x.write(to: dir + "/seed-stored.gt3x")
    gt3x.method = .deflated(level: 6)
    // info.txt's numbers, idle sleep and lost seconds: the fill and its bound.
    gt3x.zip64 = false
    gt3x.seconds = 6
    gt3x.idleSleep = [2..<4]
    gt3x.missing = [5]
    try gt3x.write(to: dir + "/seed-sleep.gt3x")
    // The old NHANES layout: one packed activity.bin stream, no log.bin.
    var nhanes = GT3XWriter()
    nhanes.layout = .nhanes
    nhanes.activity = .activity
    nhanes.seconds = 2
    nhanes.rate = 5
    try nhanes.write(to: dir + "/seed-nhanes.gt3x")
    var gene = GENEActivWriter()
    gene.frequency = 10
    try gene.write(to: dir + "/seed.bin", pages: 2) { GENEActivWriter.RawSample(x: $0, y: -$0, z: 100) }
    let csv = "t,x,y,z\n0,0.1,NaN,1\n0.01,-inf,0.2,1.5e-3\n0.02,\"3\",4,5\n"
    try Data(csv.utf8).write(to: URL(fileURLWithPath: dir + "/seed.csv"))
    try Data("{\"t\": 0, \"x\": NaN, \"y\": -Infinity, \"z\": 1}\n".utf8).write(
        to: URL(fileURLWithPath: dir + "/seed.jsonl"))
    // Every command of the control protocol, and the hostile tap rates of issue 39.
    let control =
        "stats\ntap acc* 1000\ntap * 9223372036854775807\ntap [a-z]?? -5\npause\nresume\nstep walk/out\nreload\nstop\n"
    try Data(control.utf8).write(to: URL(fileURLWithPath: dir + "/seed.control"))
}
