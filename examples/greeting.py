def greet(name):
    """Say hello."""   
    print("Hello, " + name)


if __name__ == "__main__":
    greet("world")
