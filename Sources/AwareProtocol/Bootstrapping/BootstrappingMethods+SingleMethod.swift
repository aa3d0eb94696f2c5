import AwareWire

extension BootstrappingMethods {
    /// A Request names exactly one method: the one the requester itself will use
    /// (nan-wire-reference.md 3.2). The complement rule itself is ``BootstrappingMethods/complement``
    /// in AwareWire.
    public var isSingleMethod: Bool { rawValue.nonzeroBitCount == 1 }
}
