print("b")
