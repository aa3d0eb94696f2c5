/// A binary min-heap of (deadline, id): the next work item to run. The id grows with every
/// scheduled item, so items due at the same instant run in the order they were scheduled.
struct TimerQueue {
    struct Entry {
        var deadline: UInt64
        var id: UInt64
        /// Orders work due at the same instant before the id does: 0 for a process's own work;
        /// lockstep arrivals from other processes carry a rank drawn from what they are (their
        /// sender and token), so their order does not follow when the datagram happened to be
        /// read.
        var rank: UInt64 = 0

        func precedes(_ other: Entry) -> Bool {
            if deadline != other.deadline { return deadline < other.deadline }
            if rank != other.rank { return rank < other.rank }
            return id < other.id
        }
    }

    private var heap: [Entry] = []

    var first: Entry? { heap.first }
    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func removeFirst() -> Entry? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return top }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}
