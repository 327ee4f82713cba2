
      export type PossibleTypesResultData = {
  "possibleTypes": {
    "Node": [
      "Category",
      "Product",
      "UntypedNode"
    ]
  }
};
      const result: PossibleTypesResultData = {
  "possibleTypes": {
    "Node": [
      "Category",
      "Product",
      "UntypedNode"
    ]
  }
};
      export default result;
    