"""The web: the blueprints (views), their forms, who may do what (access) and the proxies' headers."""
