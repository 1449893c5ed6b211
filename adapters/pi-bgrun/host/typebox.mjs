// Stands in for `typebox`, which the extension uses only to describe its tools' parameter
// schemas. pi validates a call against the schema before `execute`; this adapter calls
// `execute` directly (as upstream's own tests do), so the schema is kept as plain data and
// never enforced. What pi's validation would refuse is therefore not modelled.

const schema = (type) => (options = {}) => ({ type, ...options });

export const Type = {
  Object: (properties, options = {}) => ({ type: "object", properties, ...options }),
  String: schema("string"),
  Number: schema("number"),
  Integer: schema("integer"),
  Boolean: schema("boolean"),
  Optional: (inner) => ({ ...inner, optional: true }),
  Array: (items, options = {}) => ({ type: "array", items, ...options }),
  Literal: (value, options = {}) => ({ const: value, ...options }),
  Union: (anyOf, options = {}) => ({ anyOf, ...options }),
};
