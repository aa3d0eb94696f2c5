import ArgumentParser

extension SoakBench {
    /// How the phone goes away at the end of a soak cycle.
    enum Departure: String, CaseIterable, ExpressibleByArgument {
        /// Odd cycles leave the air, even ones drop the link.
        case alternate
        /// The phone stays on the air and forgets its NM-TK; the same phone reconnects.
        case dropLink = "drop-link"
        /// The phone leaves the air; a new phone (new NMI, same store) joins next cycle.
        case leaveAir = "leave-air"
    }
}
