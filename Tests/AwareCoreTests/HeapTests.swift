import AwareCore
import Testing

@Suite struct HeapTests {
    private struct Work: Comparable {
        var time: Int
        var sequence: Int
        static func < (a: Work, b: Work) -> Bool { (a.time, a.sequence) < (b.time, b.sequence) }
    }

    /// Against a sort of the same elements, with ties broken by insertion order as the
    /// schedulers rely on.
    @Test(arguments: [0, 1, 2, 3, 17, 1_000])
    func drainsInOrder(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count) + 1)
        let elements = (0..<count).map { Work(time: Int.random(in: 0..<20, using: &generator), sequence: $0) }
        var heap = Heap<Work>()
        for element in elements { heap.insert(element) }
        #expect(heap.count == count)
        var drained: [Work] = []
        while let next = heap.removeFirst() { drained.append(next) }
        #expect(drained == elements.sorted())
        #expect(heap.isEmpty && heap.first == nil)
    }

    @Test func buildsAndFiltersInLinearTime() {
        var heap = Heap([5, 3, 9, 1, 7, 1, 8])
        #expect(heap.first == 1)
        heap.filter { $0 % 2 == 1 }
        var drained: [Int] = []
        while let next = heap.removeFirst() { drained.append(next) }
        #expect(drained == [1, 1, 3, 5, 7, 9])
    }

    @Test func interleavedInsertAndRemoveKeepTheMinimumFirst() {
        var heap = Heap<Int>()
        var model: [Int] = []
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            if Bool.random(using: &generator) || model.isEmpty {
                let value = Int.random(in: -50..<50, using: &generator)
                heap.insert(value)
                model.append(value)
            } else {
                let expected = model.min()!
                model.remove(at: model.firstIndex(of: expected)!)
                #expect(heap.removeFirst() == expected)
            }
            #expect(heap.first == model.min())
        }
    }
}
