/// A data-path attribute that keeps the fields it shares with another attribute in one
/// value (``DataPathHeader``, ``NDPCommonFields``). The shared value's members read and
/// write as the attribute's own (`ndp.dialogToken`, `ndpe.responderNDI = ...`), so the
/// attributes keep their flat field names.
@dynamicMemberLookup
public protocol DataPathSharedFields {
    associatedtype SharedFields
    static var sharedFields: WritableKeyPath<Self, SharedFields> { get }
}

extension DataPathSharedFields {
    public subscript<Value>(dynamicMember member: WritableKeyPath<SharedFields, Value>) -> Value {
        get { self[keyPath: Self.sharedFields][keyPath: member] }
        set { self[keyPath: Self.sharedFields][keyPath: member] = newValue }
    }

    public subscript<Value>(dynamicMember member: KeyPath<SharedFields, Value>) -> Value {
        self[keyPath: Self.sharedFields][keyPath: member]
    }
}
