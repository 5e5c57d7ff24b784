// Finds fields that the Kubernetes and Gateway API schemas do not define.
// The schema packages' validators let unknown fields through (as the OpenAPI
// documents do), yet a misspelt field is silently dropped by kubectl's
// lenient modes: `readOnlyRootFileSystem: true` would quietly turn the
// read-only root off. The packages' TypeScript declarations list every field
// of every type, so this walks an object along them.
import fs from "node:fs";
import path from "node:path";
import { testsDir } from "./lib.mjs";

const nodeModules = path.join(testsDir, "node_modules");

// The .d.ts file a model module lives in: packages map "x/*" to "x/*.d.ts".
export function declarationFile(specifier, fromFile = null) {
  if (specifier.startsWith(".")) {
    return path.resolve(path.dirname(fromFile), specifier.replace(/\.js$/, "") + ".d.ts");
  }
  return path.join(nodeModules, specifier + ".d.ts");
}

const parsed = new Map();

// { fields: Map(name -> type) } for a file declaring a model class, or null
// for a file that only declares an alias (string, IntOrString, ...).
function readDeclarations(file) {
  if (parsed.has(file)) return parsed.get(file);
  const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  const imports = new Map();
  for (const [, names, from] of text.matchAll(/import \{([^}]*)\} from "([^"]+)"/g)) {
    for (const name of names.split(",")) imports.set(name.trim(), declarationFile(from, file));
  }
  const head = text.match(/export declare class \w+ extends Model<[^>]*>[^{]*\{/);
  let result = null;
  if (head) {
    const body = balanced(text, head.index + head[0].length - 1);
    result = { fields: readFields(body), imports };
  }
  parsed.set(file, result);
  return result;
}

// The text between the brace at `open` and its partner.
function balanced(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    if (text[i] === "}" && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error("unbalanced braces in a declaration file");
}

// `"name"?: Type;` members of a class or inline object type.
function readFields(body) {
  const fields = new Map();
  const member = /"([^"]+)"\??:\s*/g;
  let match;
  while ((match = member.exec(body))) {
    // The type runs to the first ';' outside brackets.
    let depth = 0;
    let end = member.lastIndex;
    for (; end < body.length; end++) {
      const c = body[end];
      if ("{<([".includes(c)) depth++;
      if ("}>)]".includes(c)) depth--;
      if (c === ";" && depth === 0) break;
    }
    fields.set(match[1], body.slice(member.lastIndex, end).trim());
    member.lastIndex = end + 1;
  }
  return fields;
}

// Walks `value` along `type` (a type expression from `file`), reporting
// paths of fields the declarations do not have.
function walk(value, type, file, where, unknown) {
  if (value === null || typeof value !== "object") return;
  const array = type.match(/^Array<([\s\S]*)>$/);
  if (array) {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, array[1].trim(), file, `${where}[${i}]`, unknown));
    return;
  }
  const map = type.match(/^\{\s*\[key: string\]:\s*([\s\S]*?);?\s*\}$/);
  if (map) {
    for (const [k, v] of Object.entries(value)) walk(v, map[1].trim(), file, `${where}.${k}`, unknown);
    return;
  }
  if (type.startsWith("{")) {
    checkFields(value, readFields(type.slice(1, -1)), file, where, unknown);
    return;
  }
  const declarations = readDeclarations(file);
  const target = declarations?.imports.get(type);
  if (!target) return; // a primitive, a literal union or an alias: no fields
  const model = readDeclarations(target);
  if (model) checkFields(value, model.fields, target, where, unknown);
}

function checkFields(value, fields, file, where, unknown) {
  if (Array.isArray(value)) return;
  for (const [key, v] of Object.entries(value)) {
    if (!fields.has(key)) unknown.push(`${where}.${key}`);
    else walk(v, fields.get(key), file, `${where}.${key}`, unknown);
  }
}

// Unknown field paths of a whole object, given its model's .d.ts file.
export function unknownFields(object, modelFile) {
  const model = readDeclarations(modelFile);
  if (!model) throw new Error(`no model class in ${modelFile}`);
  const unknown = [];
  checkFields(object, model.fields, modelFile, "", unknown);
  return unknown.map((p) => p.slice(1));
}
