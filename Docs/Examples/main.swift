print("d")
