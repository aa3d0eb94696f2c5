import Testing

@testable import ConformanceKit

@Suite struct CatalogueTests {
    @Test func anIDHasPathKindNumberAndGroup() throws {
        let id = try TestID("WA/DISC/MF/BV-03")
        #expect(id.path == ["WA", "DISC", "MF"])
        #expect(id.kind == .validBehaviour)
        #expect(id.number == 3)
        #expect(id.group == "WA/DISC")
        #expect(id.description == "WA/DISC/MF/BV-03")
        #expect(id.fileName == "WA_DISC_MF_BV-03")
        let invalid = try TestID("WA/DISC/BI-120")
        #expect(invalid.kind == .invalidBehaviour)
        #expect(invalid.group == "WA/DISC")
        #expect(invalid.description == "WA/DISC/BI-120")
    }

    @Test(arguments: [
        ("WA/DISC", "needs WA, a group and a BV-nn or BI-nn part"),
        ("XX/DISC/BV-01", "must start with WA/"),
        ("WA/disc/BV-01", "path segment \"disc\" must be 1 to 8 upper-case letters or digits, starting with a letter"),
        ("WA//BV-01", "path segment \"\" must be 1 to 8 upper-case letters or digits, starting with a letter"),
        (
            "WA/DISCOVERY1/BV-01",
            "path segment \"DISCOVERY1\" must be 1 to 8 upper-case letters or digits, starting with a letter"
        ),
        (
            "WA/1DISC/BV-01",
            "path segment \"1DISC\" must be 1 to 8 upper-case letters or digits, starting with a letter"
        ),
        ("WA/DISC/BX-01", "must end in BV-nn or BI-nn"),
        ("WA/DISC/BV01", "must end in BV-nn or BI-nn"),
        ("WA/DISC/BV-01-C", "must end in BV-nn or BI-nn"),
        ("WA/DISC/BV-1", "the test number must be 01 to 999, at least two digits"),
        ("WA/DISC/BV-00", "the test number must be 01 to 999, at least two digits"),
        ("WA/DISC/BV-1000", "the test number must be 01 to 999, at least two digits"),
        ("WA/DISC/BV-0x", "the test number must be 01 to 999, at least two digits"),
        ("WA/DISC/BV-003", "numbers below 100 are written with two digits"),
    ])
    func malformedIDsAreRefusedWithTheRule(text: String, reason: String) {
        #expect(throws: CatalogueError.invalidTestID(text, reason: reason)) { try TestID(text) }
    }

    @Test func idsSortByPathThenKindThenNumber() throws {
        let ids = try [
            "WA/DISC/SD/BI-01", "WA/DISC/SD/BV-100", "WA/DISC/MF/BV-03", "WA/DISC/SD/BV-99", "WA/DISC/BV-01",
        ]
        .map { try TestID($0) }
        #expect(
            ids.sorted().map(\.description) == [
                "WA/DISC/BV-01", "WA/DISC/MF/BV-03", "WA/DISC/SD/BV-99", "WA/DISC/SD/BV-100", "WA/DISC/SD/BI-01",
            ]
        )
    }

    @Test func theCatalogueIsInIDOrderAndRefusesDuplicates() throws {
        let catalogue = Synthetic.mixedCatalogue()
        #expect(catalogue.ids == catalogue.ids.sorted())
        #expect(catalogue.groups == ["WA/DISC", "WA/PAIR"])
        #expect(catalogue.test("WA/DISC/MF/BV-03")?.title == "Matching filter row 3 matches")
        #expect(catalogue.test("WA/DISC/MF/BV-04") == nil)
        #expect(throws: CatalogueError.duplicateTestID("WA/DISC/SD/BV-01")) {
            try TestCatalogue([
                Synthetic.test("WA/DISC/SD/BV-01", Synthetic.passes),
                Synthetic.test("WA/DISC/SD/BV-01", Synthetic.fails),
            ])
        }
    }

    @Test func tagsAreLowerCaseHyphenatedWords() throws {
        #expect(try TestTag("interop-apple").name == "interop-apple")
        for bad in ["Slow", "two words", "", "-x", "x-", "a--b", "ünicode"] {
            #expect(throws: CatalogueError.invalidTag(bad)) { try TestTag(bad) }
        }
        let test = try ConformanceTest(id: "WA/DISC/BV-01", title: "t", tags: ["slow", "filters"]) { _ in }
        #expect(test.tags.map(\.name) == ["filters", "slow"])
    }

    @Test func aStarMatchesAcrossSlashes() throws {
        let id = try TestID("WA/DISC/MF/BV-03")
        #expect(TestPattern("WA/DISC/*").matches(id))
        #expect(TestPattern("*").matches(id))
        #expect(TestPattern("*BV-03").matches(id))
        #expect(TestPattern("WA/*/BV-*").matches(id))
        #expect(TestPattern("WA/DISC/MF/B?-03").matches(id))
        #expect(TestPattern("wa/disc/mf/bv-03").matches(id))
        #expect(TestPattern("W*C*F*0*3").matches(id))
        #expect(!TestPattern("WA/DISC").matches(id))
        #expect(!TestPattern("WA/DISC/MF/BV-0").matches(id))
        #expect(!TestPattern("WA/DISC/*/BI-*").matches(id))
        #expect(!TestPattern("?WA/DISC/MF/BV-03").matches(id))
        #expect(!TestPattern("").matches(id))
    }

    @Test func onlyIsAUnionAndSkipSubtracts() {
        let catalogue = Synthetic.mixedCatalogue()
        let union = catalogue.select(TestSelection(only: ["WA/DISC/MF/*", "WA/PAIR/*"])).map(\.id.description)
        #expect(union == ["WA/DISC/MF/BV-03", "WA/PAIR/BV-01"])
        let skipped = catalogue.select(TestSelection(only: ["WA/DISC/*"], skip: ["*/BI-*", "*MF*"]))
            .map(\.id.description)
        #expect(skipped == ["WA/DISC/SD/BV-01", "WA/DISC/SD/BV-02", "WA/DISC/SD/BV-10"])
        #expect(catalogue.select(.all).count == catalogue.tests.count)
        let selection = TestSelection(only: ["WA/DISC/*", "WA/DISK/*"])
        #expect(selection.unmatchedOnlyPatterns(in: catalogue.ids).map(\.text) == ["WA/DISK/*"])
    }
}
