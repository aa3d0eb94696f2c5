/// The next state of a ``BootstrapRequester`` and what to do to get there.
struct BootstrapRequesterTransition {
    var state: BootstrapRequesterState
    var actions: [BootstrapRequesterAction]

    init(_ state: BootstrapRequesterState, _ actions: [BootstrapRequesterAction]) {
        self.state = state
        self.actions = actions
    }
}
