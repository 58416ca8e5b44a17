import DAQCore
import Dispatch
import Testing

/// The weak box plugins carry through callbacks back to their stage's queue.
@Suite("queue-confined weak box", .timeLimit(.minutes(20)))
struct QueueConfinedTests {
    final class Probe {
        var hits = 0
    }

    @Test func holdsWithoutRetaining() {
        var probe: Probe? = Probe()
        let box = QueueConfined(probe!)
        #expect(box.value === probe)
        probe = nil
        #expect(box.value == nil, "the box kept its object alive")
    }

    @Test func reachesTheObjectOnItsQueue() {
        let queue = DispatchQueue(label: "stage")
        let probe = Probe()
        let box = QueueConfined(probe)
        // Carried through a closure that must be Sendable, as timers and tasks require.
        let work: @Sendable () -> Void = { box.value?.hits += 1 }
        queue.sync(execute: work)
        queue.sync(execute: work)
        #expect(probe.hits == 2)
    }
}
