// A small stand-in for the browser's DOM, enough for the drawing and the score line:
// elements with attributes, children, text, classes and dataset, and querySelector for
// the selectors the scripts use ("tag", ".class", "[attr]", "[attr=value]", joined).

class ClassList {
  constructor(element) {
    this.element = element;
  }

  get names() {
    return (this.element.getAttribute("class") || "").split(/\s+/).filter(Boolean);
  }

  contains(name) {
    return this.names.includes(name);
  }

  add(...names) {
    this.element.setAttribute("class", [...new Set([...this.names, ...names])].join(" "));
  }

  remove(...names) {
    this.element.setAttribute("class", this.names.filter((n) => !names.includes(n)).join(" "));
  }

  toggle(name, force = !this.contains(name)) {
    if (force) this.add(name);
    else this.remove(name);
    return force;
  }
}

const camel = (name) => name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
const kebab = (name) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

export class Element {
  constructor(tagName, namespace = null) {
    this.tagName = tagName;
    this.namespaceURI = namespace;
    this.attributes = new Map();
    this.children = [];
    this.parentNode = null;
    this.text = "";
    this.classList = new ClassList(this);
    const element = this;
    this.dataset = new Proxy({}, {
      get: (_, key) => element.getAttribute(`data-${kebab(String(key))}`) ?? undefined,
      set: (_, key, value) => {
        element.setAttribute(`data-${kebab(String(key))}`, value);
        return true;
      },
    });
  }

  get className() {
    return this.getAttribute("class") || "";
  }

  set className(value) {
    this.setAttribute("class", value);
  }

  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }

  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  hasAttribute(name) {
    return this.attributes.has(name);
  }

  appendChild(child) {
    if (typeof child === "string") child = new Text(child);
    if (child.parentNode) child.parentNode.children.splice(child.parentNode.children.indexOf(child), 1);
    child.parentNode = this;
    this.children.push(child);
    return child;
  }

  append(...children) {
    for (const child of children) this.appendChild(child);
  }

  replaceChildren(...children) {
    for (const child of this.children) child.parentNode = null;
    this.children = [];
    this.text = "";
    this.append(...children);
  }

  after(node) {
    const siblings = this.parentNode.children;
    node.parentNode = this.parentNode;
    siblings.splice(siblings.indexOf(this) + 1, 0, node);
  }

  get nextElementSibling() {
    if (!this.parentNode) return null;
    const siblings = this.parentNode.children.filter((child) => child instanceof Element);
    return siblings[siblings.indexOf(this) + 1] || null;
  }

  get textContent() {
    return this.text + this.children.map((child) => child.textContent).join("");
  }

  set textContent(value) {
    this.replaceChildren();
    this.text = String(value);
  }

  matches(selector) {
    const parts = selector.match(/^([a-z]+)?((?:\.[\w-]+|\[[\w-]+(?:="?[^"\]]*"?)?\])*)$/);
    if (!parts) throw new Error(`the stand-in DOM cannot read ${selector}`);
    if (parts[1] && parts[1] !== this.tagName) return false;
    for (const [, cls, attr, value] of parts[2].matchAll(/\.([\w-]+)|\[([\w-]+)(?:="?([^"\]]*)"?)?\]/g)) {
      if (cls && !this.classList.contains(cls)) return false;
      if (attr && (!this.hasAttribute(attr) || (value !== undefined && this.getAttribute(attr) !== value))) {
        return false;
      }
    }
    return true;
  }

  querySelectorAll(selector) {
    const chain = selector.trim().split(/\s+/);
    const found = [];
    const walk = (node) => {
      for (const child of node.children) {
        if (!(child instanceof Element)) continue;
        if (child.matches(chain[chain.length - 1]) && child.within(chain.slice(0, -1), this)) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }

  /** Return whether the ancestors (up to `top`) match a descendant chain of selectors. */
  within(chain, top) {
    let rest = chain.slice();
    for (let node = this.parentNode; node && rest.length && node !== top.parentNode; node = node.parentNode) {
      if (node.matches(rest[rest.length - 1])) rest = rest.slice(0, -1);
    }
    return rest.length === 0;
  }

  querySelector(selector) {
    return this.querySelectorAll(selector)[0] || null;
  }
}

class Text {
  constructor(text) {
    this.textContent = text;
    this.parentNode = null;
  }
}

/** Install a new document (globalThis.document) and return its body. */
export function newDocument() {
  const body = new Element("body");
  globalThis.document = {
    body,
    createElement: (name) => new Element(name),
    createElementNS: (namespace, name) => new Element(name, namespace),
    querySelector: (selector) => body.querySelector(selector),
    getElementById: (id) => body.querySelector(`[id=${id}]`),
  };
  return body;
}
