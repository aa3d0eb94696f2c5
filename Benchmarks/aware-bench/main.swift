AwareBench.main()
