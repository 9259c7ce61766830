// Calls to the gateway's /v1 API with the token the person typed: kept in sessionStorage (this tab only) and sent
// only in the Authorization header, never in a URL.
export const TOKEN_KEY = "hindsight.token";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function messageOf(data, status) {
  if (data && data.error && data.error.message) return data.error.message;
  if (data && Array.isArray(data.detail)) return data.detail.map((d) => (d.loc || []).slice(1).join(".") + ": " + d.msg).join("; ");
  if (data && typeof data.detail === "string") return data.detail;
  return "request failed (" + status + ")";
}

export async function api(method, path, options) {
  const { query, body } = options || {};
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(query || {})) {
    if (v === null || v === undefined || v === "") continue;
    if (Array.isArray(v)) v.forEach((x) => url.searchParams.append(k, x));
    else url.searchParams.set(k, v);
  }
  const headers = { Accept: "application/json" };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit",
    cache: "no-store",
  });
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, messageOf(data, res.status));
  return data;
}
