import ArgumentParser

AwareConform.main()
