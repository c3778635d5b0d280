//! The three ways `kubectl patch` (and `kubectl run --overrides`) change an object: a JSON
//! merge patch (RFC 7386), a strategic merge patch (a merge patch whose lists of named items,
//! such as a pod's containers, merge by name), and a JSON patch (RFC 6902). Pure functions on
//! JSON values; the caller turns objects into JSON and back.

use serde_json::{Map, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// How a patch is applied (`--type` of `kubectl patch`, `--override-type` of `kubectl run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    /// Kubernetes' strategic merge patch (the default).
    Strategic,
    /// A JSON merge patch (RFC 7386).
    Merge,
    /// A JSON patch (RFC 6902).
    Json,
}

impl PatchType {
    /// The value of `--type`, as kubectl lowercases it.
    pub fn from_flag(v: &str) -> Option<PatchType> {
        match v.to_lowercase().as_str() {
            "strategic" => Some(PatchType::Strategic),
            "merge" => Some(PatchType::Merge),
            "json" => Some(PatchType::Json),
            _ => None,
        }
    }
}

/// Lists that a strategic merge patch merges item by item, with the key that names an item.
/// (Kubernetes' API types declare these with `patchMergeKey`; these are the ones on the
/// objects of the labs.)
const MERGE_KEYS: &[(&str, &str)] = &[
    ("containers", "name"),
    ("initContainers", "name"),
    ("volumes", "name"),
    ("volumeMounts", "mountPath"),
    ("env", "name"),
    ("ports", "containerPort"),
    ("imagePullSecrets", "name"),
];

/// Parses a patch or an override the way kubectl does: YAML, of which JSON is a part.
pub fn parse(text: &str) -> Result<Value, String> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        // go-yaml states the problem without the parser's context ("while parsing a node").
        let info = e.info();
        let info = info.rsplit(", ").next().unwrap_or(info);
        // The parser counts the end of the text as a line of its own; go-yaml does not.
        let line = e.marker().line().min(text.lines().count()).max(1);
        format!("yaml: line {line}: {info}")
    })?;
    Ok(docs.first().map(yaml_to_json).unwrap_or(Value::Null))
}

/// A YAML value as JSON (integers stay integers; keys become strings).
pub fn yaml_to_json(y: &Yaml) -> Value {
    match y {
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Real(r) => r
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .unwrap_or_else(|| Value::String(r.clone())),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(a) => Value::Array(a.iter().map(yaml_to_json).collect()),
        Yaml::Hash(h) => Value::Object(
            h.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Yaml::String(s) => s.clone(),
                        Yaml::Integer(i) => i.to_string(),
                        Yaml::Boolean(b) => b.to_string(),
                        Yaml::Real(r) => r.clone(),
                        _ => String::new(),
                    };
                    (key, yaml_to_json(v))
                })
                .collect(),
        ),
        _ => Value::Null,
    }
}

/// Applies `patch` to `target` in the given way.
pub fn apply(target: &Value, patch: &Value, how: PatchType) -> Result<Value, String> {
    let mut out = target.clone();
    match how {
        PatchType::Merge => merge(&mut out, patch, false),
        PatchType::Strategic => merge(&mut out, patch, true),
        PatchType::Json => json_patch(&mut out, patch)?,
    }
    Ok(out)
}

/// RFC 7386: objects merge key by key, `null` removes a key, anything else replaces. With
/// `strategic`, lists named in [`MERGE_KEYS`] merge item by item instead of being replaced.
fn merge(target: &mut Value, patch: &Value, strategic: bool) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(t) = target else {
        return;
    };
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
            continue;
        }
        let key = MERGE_KEYS
            .iter()
            .find(|(list, _)| list == k)
            .map(|(_, key)| *key);
        match (strategic, key, t.get_mut(k), v) {
            (true, Some(key), Some(Value::Array(items)), Value::Array(patches)) => {
                merge_list(items, patches, key);
            }
            (_, _, Some(existing), _) => merge(existing, v, strategic),
            (_, _, None, _) => {
                let mut fresh = Value::Null;
                merge(&mut fresh, v, strategic);
                t.insert(k.clone(), fresh);
            }
        }
    }
}

/// A strategic merge of a list of named items: an item with a known name merges into it, a new
/// name is added, `$patch: delete` removes it.
fn merge_list(items: &mut Vec<Value>, patches: &[Value], key: &str) {
    for p in patches {
        let name = p.get(key).cloned();
        let at = name
            .as_ref()
            .and_then(|n| items.iter().position(|i| i.get(key) == Some(n)));
        let delete = p.get("$patch").and_then(Value::as_str) == Some("delete");
        match (at, delete) {
            (Some(i), true) => {
                items.remove(i);
            }
            (Some(i), false) => merge(&mut items[i], p, true),
            (None, true) => {}
            (None, false) => items.push(p.clone()),
        }
    }
}

/// RFC 6902: a list of operations applied in order; any failure leaves the object unchanged.
fn json_patch(target: &mut Value, patch: &Value) -> Result<(), String> {
    let Value::Array(ops) = patch else {
        return Err("json: cannot unmarshal object into Go value of type jsonpatch.Patch".into());
    };
    let mut doc = target.clone();
    for op in ops {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("");
        let path = op.get("path").and_then(Value::as_str).unwrap_or("");
        let value = || {
            op.get("value")
                .cloned()
                .ok_or_else(|| format!("missing value in {kind} operation"))
        };
        let from = || {
            op.get("from")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("missing from in {kind} operation"))
        };
        match kind {
            "add" => add(&mut doc, path, value()?)?,
            "remove" => {
                remove(&mut doc, path)?;
            }
            "replace" => {
                remove(&mut doc, path)?;
                add(&mut doc, path, value()?)?;
            }
            "test" => {
                if pointer(&doc, path)? != &value()? {
                    return Err(format!("testing value {path} failed"));
                }
            }
            "move" => {
                let v = remove(&mut doc, from()?)?;
                add(&mut doc, path, v)?;
            }
            "copy" => {
                let v = pointer(&doc, from()?)?.clone();
                add(&mut doc, path, v)?;
            }
            other => return Err(format!("Unexpected kind: {other}")),
        }
    }
    *target = doc;
    Ok(())
}

/// The reference tokens of a JSON pointer (`/metadata/labels/a~1b` -> metadata, labels, a/b).
fn tokens(path: &str) -> Result<Vec<String>, String> {
    if path.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err(format!("invalid JSON pointer: {path}"));
    };
    Ok(rest
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect())
}

fn pointer<'a>(doc: &'a Value, path: &str) -> Result<&'a Value, String> {
    let mut at = doc;
    for t in tokens(path)? {
        at = match at {
            Value::Object(m) => m.get(&t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        }
        .ok_or_else(|| format!("doc is missing path: {path}"))?;
    }
    Ok(at)
}

/// The parent of `path`'s last token, and that token.
fn parent<'a>(doc: &'a mut Value, path: &str) -> Result<(&'a mut Value, String), String> {
    let mut toks = tokens(path)?;
    let Some(last) = toks.pop() else {
        return Err(format!("doc is missing path: {path}"));
    };
    let mut at = doc;
    for t in toks {
        at = match at {
            Value::Object(m) => m.get_mut(&t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| format!("doc is missing path: {path}"))?;
    }
    Ok((at, last))
}

fn add(doc: &mut Value, path: &str, v: Value) -> Result<(), String> {
    if path.is_empty() {
        *doc = v;
        return Ok(());
    }
    let (p, last) = parent(doc, path)?;
    match p {
        Value::Object(m) => {
            m.insert(last, v);
            Ok(())
        }
        Value::Array(a) if last == "-" => {
            a.push(v);
            Ok(())
        }
        Value::Array(a) => match last.parse::<usize>() {
            Ok(i) if i <= a.len() => {
                a.insert(i, v);
                Ok(())
            }
            _ => Err(format!(
                "add operation does not apply: doc is missing path: {path}"
            )),
        },
        _ => Err(format!(
            "add operation does not apply: doc is missing path: {path}"
        )),
    }
}

fn remove(doc: &mut Value, path: &str) -> Result<Value, String> {
    let (p, last) = parent(doc, path)?;
    let missing = || format!("remove operation does not apply: doc is missing key: {path}");
    match p {
        Value::Object(m) => m.remove(&last).ok_or_else(missing),
        Value::Array(a) => match last.parse::<usize>() {
            Ok(i) if i < a.len() => Ok(a.remove(i)),
            _ => Err(missing()),
        },
        _ => Err(missing()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod() -> Value {
        json!({"metadata": {"name": "p", "labels": {"run": "p"}},
               "spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}})
    }

    #[test]
    fn merge_patch_sets_and_removes_keys_and_replaces_lists() {
        let p = json!({"metadata": {"labels": {"gpu": "true", "run": null}},
                       "spec": {"containers": [{"name": "b", "image": "z"}]}});
        let out = apply(&pod(), &p, PatchType::Merge).expect("merge");
        assert_eq!(out["metadata"]["labels"], json!({"gpu": "true"}));
        assert_eq!(
            out["spec"]["containers"],
            json!([{"name": "b", "image": "z"}])
        );
    }

    #[test]
    fn strategic_merge_merges_containers_by_name() {
        let p = json!({"spec": {"containers": [{"name": "b", "image": "z"}, {"name": "c", "image": "w"}]}});
        let out = apply(&pod(), &p, PatchType::Strategic).expect("strategic");
        assert_eq!(
            out["spec"]["containers"],
            json!([{"name": "a", "image": "x"}, {"name": "b", "image": "z"}, {"name": "c", "image": "w"}])
        );
    }

    #[test]
    fn json_patch_adds_replaces_and_fails_whole_on_a_missing_key() {
        let ops = json!([
            {"op": "add", "path": "/metadata/labels/gpu", "value": "true"},
            {"op": "replace", "path": "/spec/containers/0/image", "value": "q"}
        ]);
        let out = apply(&pod(), &ops, PatchType::Json).expect("json patch");
        assert_eq!(out["metadata"]["labels"]["gpu"], "true");
        assert_eq!(out["spec"]["containers"][0]["image"], "q");
        let bad = json!([{"op": "replace", "path": "/metadata/annotations/x", "value": "1"}]);
        assert!(apply(&pod(), &bad, PatchType::Json).is_err());
        let escaped = json!([{"op": "add", "path": "/metadata/labels/amd.com~1gpu", "value": "1"}]);
        let out = apply(&pod(), &escaped, PatchType::Json).expect("escaped key");
        assert_eq!(out["metadata"]["labels"]["amd.com/gpu"], "1");
    }

    #[test]
    fn patches_are_json_or_yaml() {
        assert_eq!(
            parse("{\"a\": {\"b\": 1}}").expect("json"),
            json!({"a": {"b": 1}})
        );
        assert_eq!(
            parse("metadata:\n  labels:\n    gpu: \"true\"\n").expect("yaml"),
            json!({"metadata": {"labels": {"gpu": "true"}}})
        );
        assert!(parse("{\"a\": ").is_err());
    }
}
