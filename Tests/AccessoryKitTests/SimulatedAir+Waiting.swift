import AwareCore
import AwareRadio

extension SimulatedAir {
    /// Lets virtual time pass, event by event, until `condition` holds or `timeout` has passed;
    /// returns whether it held. Nothing runs past the deadline.
    func run(_ timeout: Interval, until condition: () -> Bool) -> Bool {
        let deadline = virtualScheduler.now + timeout
        while !condition() {
            guard let next = virtualScheduler.nextEventTime, next <= deadline else { return condition() }
            virtualScheduler.run(until: next)
        }
        return true
    }
}
