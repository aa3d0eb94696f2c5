import ArgumentParser

AwareConform.mainWithProjectExitCodes()
