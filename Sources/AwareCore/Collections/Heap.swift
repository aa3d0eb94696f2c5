/// A binary min-heap: `first` is the element that precedes every other (`<`), in O(1); insert
/// and `removeFirst` in O(log n). The package's one priority queue: the simulated air's
/// scheduler and the wall-clock timer queue both keep their pending work in one.
///
/// Sifts run over the unsafe buffer (one exclusive access per sift, no bounds checks on
/// indices the loops keep below `count`) and the methods are inlinable so that they specialise
/// for the element type: the scheduler's event loop is the hottest code in a simulated run
/// (aware-bench scheduler).
public struct Heap<Element: Comparable> {
    @usableFromInline var storage: [Element] = []

    @inlinable public init() {}

    /// A heap of `elements`, built in O(n).
    @inlinable public init(_ elements: some Sequence<Element>) {
        storage = Array(elements)
        heapify()
    }

    @inlinable public var first: Element? { storage.first }
    @inlinable public var count: Int { storage.count }
    @inlinable public var isEmpty: Bool { storage.isEmpty }

    /// The elements in heap order (not sorted): for walking every pending element.
    @inlinable public var unordered: [Element] { storage }

    @inlinable public mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    @inlinable public mutating func insert(_ element: Element) {
        storage.append(element)
        storage.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard element < heap[parent] else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = element
        }
    }

    @discardableResult
    @inlinable public mutating func removeFirst() -> Element? {
        guard let top = storage.first else { return nil }
        let last = storage.removeLast()
        guard !storage.isEmpty else { return top }
        storage[0] = last
        siftDown(from: 0)
        return top
    }

    /// Keeps only the elements for which `isIncluded` is true, and restores the heap in O(n).
    @inlinable public mutating func filter(_ isIncluded: (Element) throws -> Bool) rethrows {
        storage = try storage.filter(isIncluded)
        heapify()
    }

    @inlinable mutating func heapify() {
        var index = storage.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    @inlinable mutating func siftDown(from start: Int) {
        storage.withUnsafeMutableBufferPointer { heap in
            let count = heap.count
            let element = heap[start]
            var index = start
            while true {
                var child = 2 * index + 1
                guard child < count else { break }
                if child + 1 < count, heap[child + 1] < heap[child] { child += 1 }
                guard heap[child] < element else { break }
                heap[index] = heap[child]
                index = child
            }
            heap[index] = element
        }
    }
}

extension Heap: Sendable where Element: Sendable {}
