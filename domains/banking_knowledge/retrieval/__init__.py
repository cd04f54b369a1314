"""Knowledge retrieval for the banking domain: the knowledge base, search tools, variants."""
