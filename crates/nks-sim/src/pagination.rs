//! Cursor pagination shared by every list (digest §4).
//!
//! A cursor is base64url(`v1:<offset>:<scope hash>`). The hash covers the path and every query
//! parameter except `cursor` and `limit`, so a cursor replayed with other filters or another
//! sort is refused with 400 — the API documents cursors as valid only for the same filters.
//! `limit` may change between pages because the cursor carries an offset, not a page number.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::model::{ListEnvelope, Pagination};

pub const DEFAULT_LIMIT: usize = 20;
pub const MIN_LIMIT: usize = 10;
pub const MAX_LIMIT: usize = 100;

/// Decoded query string, in order, with `+` and percent escapes undone.
#[derive(Debug, Clone, Default)]
pub struct QueryParams(pub Vec<(String, String)>);

impl QueryParams {
    pub fn parse(raw: Option<&str>) -> Self {
        Self(
            raw.map(|q| form_urlencoded::parse(q.as_bytes()).into_owned().collect())
                .unwrap_or_default(),
        )
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A required filter such as `project_id`: absent or empty is a 400.
    pub fn required(&self, name: &str) -> ApiResult<&str> {
        match self.get(name) {
            Some(v) if !v.is_empty() => Ok(v),
            _ => Err(ApiError::bad_request(format!(
                "{name}: query parameter is required"
            ))),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub offset: usize,
    pub limit: usize,
    scope: u64,
}

impl PageRequest {
    /// 1-based number of the page this request serves (used by the `page_fail` fault).
    pub fn page_number(&self) -> usize {
        self.offset / self.limit + 1
    }
}

fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn scope_hash(path: &str, query: &QueryParams) -> u64 {
    let mut filters: Vec<&(String, String)> = query
        .0
        .iter()
        .filter(|(k, _)| k != "cursor" && k != "limit")
        .collect();
    filters.sort();
    let mut h = fnv1a(path.as_bytes(), 0xcbf2_9ce4_8422_2325);
    for (k, v) in filters {
        h = fnv1a(k.as_bytes(), fnv1a(b"&", h));
        h = fnv1a(v.as_bytes(), fnv1a(b"=", h));
    }
    h
}

fn encode_cursor(offset: usize, scope: u64) -> String {
    URL_SAFE_NO_PAD.encode(format!("v1:{offset}:{scope:016x}"))
}

fn decode_cursor(cursor: &str) -> Option<(usize, u64)> {
    let raw = URL_SAFE_NO_PAD.decode(cursor.trim_end_matches('=')).ok()?;
    let text = std::str::from_utf8(&raw).ok()?;
    let mut parts = text.split(':');
    if parts.next()? != "v1" {
        return None;
    }
    let offset = parts.next()?.parse().ok()?;
    let scope = u64::from_str_radix(parts.next()?, 16).ok()?;
    if parts.next().is_some() {
        return None;
    }
    Some((offset, scope))
}

pub fn parse_page(path: &str, query: &QueryParams) -> ApiResult<PageRequest> {
    let limit = match query.get("limit") {
        None => DEFAULT_LIMIT,
        Some(raw) => match raw.parse::<usize>() {
            Ok(n) if (MIN_LIMIT..=MAX_LIMIT).contains(&n) => n,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "limit: must be an integer between {MIN_LIMIT} and {MAX_LIMIT}"
                )))
            }
        },
    };
    let scope = scope_hash(path, query);
    let offset = match query.get("cursor") {
        None | Some("") => 0,
        Some(cursor) => {
            let (offset, cursor_scope) = decode_cursor(cursor)
                .ok_or_else(|| ApiError::bad_request("cursor: is not a valid cursor"))?;
            if cursor_scope != scope {
                return Err(ApiError::bad_request(
                    "cursor: was issued for different filters or sort order",
                ));
            }
            offset
        }
    };
    Ok(PageRequest {
        offset,
        limit,
        scope,
    })
}

/// Cuts one page out of the full, already filtered and ordered list.
pub fn paginate<T: Serialize>(items: Vec<T>, page: &PageRequest) -> ListEnvelope<T> {
    let total_count = items.len();
    let end = page.offset.saturating_add(page.limit).min(total_count);
    let next_cursor = (end < total_count).then(|| encode_cursor(end, page.scope));
    let previous_cursor = (page.offset > 0)
        .then(|| encode_cursor(page.offset.saturating_sub(page.limit), page.scope));
    let items = items
        .into_iter()
        .skip(page.offset)
        .take(page.limit)
        .collect();
    ListEnvelope {
        items,
        pagination: Pagination {
            next_cursor,
            previous_cursor,
            total_count,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> QueryParams {
        QueryParams::parse(Some(s))
    }

    #[test]
    fn cursor_walks_pages_and_ends_with_null() {
        let all: Vec<u32> = (0..25).collect();
        let p1 = parse_page("/x", &q("limit=10")).expect("page 1");
        let e1 = paginate(all.clone(), &p1);
        let c = e1.pagination.next_cursor.expect("more");
        let p3 = parse_page("/x", &q(&format!("limit=10&cursor={c}"))).expect("page 2");
        assert_eq!(p3.page_number(), 2);
        let e2 = paginate(all.clone(), &p3);
        let c2 = e2.pagination.next_cursor.expect("more");
        let e3 = paginate(
            all,
            &parse_page("/x", &q(&format!("limit=10&cursor={c2}"))).expect("3"),
        );
        assert_eq!(e3.items, vec![20, 21, 22, 23, 24]);
        assert!(e3.pagination.next_cursor.is_none());
        assert_eq!(e3.pagination.total_count, 25);
    }

    #[test]
    fn cursor_from_other_filters_is_refused() {
        let p = parse_page("/x", &q("status=done")).expect("ok");
        let e = paginate((0..30).collect::<Vec<_>>(), &p);
        let c = e.pagination.next_cursor.expect("more");
        assert!(parse_page("/x", &q(&format!("status=failed&cursor={c}"))).is_err());
        assert!(parse_page("/x", &q("cursor=%%%")).is_err());
        assert!(parse_page("/x", &q("limit=9")).is_err());
        assert!(parse_page("/x", &q("limit=101")).is_err());
    }
}
