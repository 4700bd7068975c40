/**
 * Which error codes each action's handler can raise, found by reading the server's sources with the
 * TypeScript compiler API (docs/architecture.md "Declared errors"): from each `defineAction({ route,
 * handler })`, a walk of every function the handler can reach, collecting the code of each
 * `new CmsError(code, ...)` on the way (the code's type names it: a literal, or a union of literals).
 *
 * What the walk follows, from a function's body (nested callbacks included, as they run with it):
 * - every reference to a function with a body, called or passed on (a callback passed by name counts);
 * - a method or property called through an interface or type literal: every class member and object
 *   literal member of that name whose class or object is assignable to the interface (so a service
 *   handed over by the registry, or a `Db` implementation, is followed into each implementation);
 * - `new C(...)`: C's constructor and its property initialisers.
 * It over-approximates (a branch never taken, an error caught above counts) rather than misses.
 * What it cannot see: a function reached only through a value of a function type whose source it does
 * not pass (a callback stored in a map at start and looked up at request time), and codes not written
 * as literal types (`new CmsError(code)` with `code: ErrorCode`); it reports the latter as `opaque`.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { findFunction, isFunctionLike, property, skipOuter } from './raised-codes-syntax.js';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REPO_DIR = join(SERVER_DIR, '../..');
const SOURCE_DIRS = [join(SERVER_DIR, 'src'), join(REPO_DIR, 'packages/core/src')];

/** One code an action can raise, with the chain of functions that reaches the `new CmsError`. */
export interface RaisedCode {
  code: string;
  /** `handler -> ReleasesService.publish -> assertState (releases/release-rules.ts:33)`. */
  via: string;
}

export interface RaisedCodes {
  /** Action id -> the codes its handler can raise, each with one way to reach it. */
  byAction: Map<string, RaisedCode[]>;
  /** `new CmsError(...)` sites whose code the walk cannot tell, reached from some handler. */
  opaque: string[];
  /** `defineAction` calls whose route id the walk could not read. */
  unreadActions: string[];
}

function isSource(file: ts.SourceFile): boolean {
  return !file.isDeclarationFile && SOURCE_DIRS.some((dir) => file.fileName.startsWith(dir));
}

function createProgram(): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(SERVER_DIR, 'tsconfig.json'),
    { noEmit: true, composite: false, declaration: false, incremental: false },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('packages/server/tsconfig.json could not be read');
  // Without project references, `@cms/core` resolves through its package exports to its sources.
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** The raising analysis over one program; build once, ask per action. */
class CallGraph {
  private readonly checker: ts.TypeChecker;
  private readonly sources: ts.SourceFile[];
  private readonly facts = new Map<ts.Node, { codes: RaisedCode[]; callees: ts.Node[] }>();
  private readonly implementations = new Map<ts.Node, ts.Node[]>();
  readonly opaque = new Set<string>();
  private members:
    | Map<string, { owner: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression; body: ts.Node }[]>
    | undefined;

  constructor(program: ts.Program) {
    this.checker = program.getTypeChecker();
    this.sources = program.getSourceFiles().filter(isSource);
  }

  /** Every `defineAction({ route, handler })` call of the server's sources. */
  actions(): { id: string | null; handler: ts.Node; where: string }[] {
    const found: { id: string | null; handler: ts.Node; where: string }[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineAction') {
        const spec = node.arguments[0];
        if (spec && ts.isObjectLiteralExpression(spec)) {
          const handler = property(spec, 'handler');
          const route = property(spec, 'route');
          if (handler) found.push({ id: route ? this.routeId(route) : null, handler, where: this.where(node) });
        }
      }
      ts.forEachChild(node, visit);
    };
    for (const file of this.sources.filter((f) => f.fileName.startsWith(join(SERVER_DIR, 'src')))) visit(file);
    return found;
  }

  /** The codes reachable from `root`, each with the first chain found to it (breadth first: the shortest). */
  codesFrom(root: ts.Node): RaisedCode[] {
    const seen = new Map<ts.Node, string>([[root, 'handler']]);
    const queue: ts.Node[] = [root];
    const codes = new Map<string, RaisedCode>();
    for (let node = queue.shift(); node; node = queue.shift()) {
      const path = seen.get(node) as string;
      const facts = this.factsOf(node);
      for (const raised of facts.codes) {
        if (!codes.has(raised.code)) codes.set(raised.code, { code: raised.code, via: `${path} (${raised.via})` });
      }
      for (const callee of facts.callees) {
        if (seen.has(callee)) continue;
        seen.set(callee, `${path} -> ${this.nameOf(callee)}`);
        queue.push(callee);
      }
    }
    return [...codes.values()];
  }

  private factsOf(fn: ts.Node): { codes: RaisedCode[]; callees: ts.Node[] } {
    const known = this.facts.get(fn);
    if (known) return known;
    const facts = { codes: [] as RaisedCode[], callees: [] as ts.Node[] };
    this.facts.set(fn, facts);
    const callees = new Set<ts.Node>();
    const visit = (node: ts.Node): void => {
      if (ts.isTypeNode(node) || ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) return;
      if (ts.isNewExpression(node)) {
        if (this.isCmsError(node.expression)) {
          this.codesOfNew(node, facts.codes);
          for (const argument of node.arguments ?? []) visit(argument);
          return;
        }
        for (const target of this.constructed(node.expression)) callees.add(target);
      }
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
        for (const target of this.targetsOf(node)) callees.add(target);
      }
      ts.forEachChild(node, visit);
    };
    // A class member's facts are its body's; a function's, its parameters' defaults and body.
    ts.forEachChild(fn, visit);
    callees.delete(fn);
    facts.callees = [...callees];
    return facts;
  }

  private isCmsError(expression: ts.Expression): boolean {
    const symbol = this.resolve(this.checker.getSymbolAtLocation(expression));
    if (symbol?.name !== 'CmsError') return false;
    const declaration = symbol.declarations?.[0];
    return declaration?.getSourceFile().fileName.endsWith('core/src/errors/cms-error.ts') === true;
  }

  /** The code of `new CmsError(code, ...)`: each string literal its type allows. */
  private codesOfNew(node: ts.NewExpression, into: RaisedCode[]): void {
    const argument = node.arguments?.[0];
    const where = this.where(node);
    if (!argument) return;
    const type = this.checker.getTypeAtLocation(argument);
    const parts = type.isUnion() ? type.types : [type];
    const literals = parts.filter((part): part is ts.StringLiteralType => part.isStringLiteral());
    if (literals.length === 0 || literals.length !== parts.length) {
      // The object form (`new CmsError({ code, status, ... })`) is the clients'; anything else is unknown.
      if (!(type.getFlags() & ts.TypeFlags.Object)) this.opaque.add(`${where}: ${argument.getText()}`);
      return;
    }
    for (const literal of literals) into.push({ code: literal.value, via: where });
  }

  private resolve(symbol: ts.Symbol | undefined): ts.Symbol | undefined {
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) return this.checker.getAliasedSymbol(symbol);
    return symbol;
  }

  /** The function bodies an identifier refers to, when it names a function (called or passed on). */
  private targetsOf(node: ts.Identifier | ts.PrivateIdentifier): ts.Node[] {
    const parent = node.parent;
    // A declaration's own name, or a property name being declared, refers to nothing.
    if (parent && (ts.isFunctionDeclaration(parent) || ts.isVariableDeclaration(parent)) && parent.name === node)
      return [];
    if (parent && (ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent)) && parent.name === node)
      return [];
    let symbol = this.checker.getSymbolAtLocation(node);
    if (parent && ts.isShorthandPropertyAssignment(parent)) {
      symbol = this.checker.getShorthandAssignmentValueSymbol(parent) ?? symbol;
    }
    symbol = this.resolve(symbol);
    if (!symbol) return [];
    const targets: ts.Node[] = [];
    for (const declaration of symbol.declarations ?? []) {
      if (!isSource(declaration.getSourceFile())) continue;
      const body = this.bodyOf(declaration);
      if (body) targets.push(body);
      else if (ts.isMethodSignature(declaration) || ts.isPropertySignature(declaration)) {
        targets.push(...this.implementationsOf(symbol, declaration));
      }
    }
    return targets;
  }

  /** The function a declaration stands for: itself, or the function it is initialised with. */
  private bodyOf(declaration: ts.Node): ts.Node | null {
    if (isFunctionLike(declaration)) return declaration.body ? declaration : null;
    if (
      (ts.isVariableDeclaration(declaration) ||
        ts.isPropertyAssignment(declaration) ||
        ts.isPropertyDeclaration(declaration)) &&
      declaration.initializer
    ) {
      const initializer = skipOuter(declaration.initializer);
      if (isFunctionLike(initializer)) return initializer;
    }
    return null;
  }

  /** `new C(...)`: the constructor of C and its property initialisers (which run with it). */
  private constructed(expression: ts.Expression): ts.Node[] {
    const symbol = this.resolve(this.checker.getSymbolAtLocation(expression));
    const targets: ts.Node[] = [];
    for (const declaration of symbol?.declarations ?? []) {
      if (!ts.isClassDeclaration(declaration) || !isSource(declaration.getSourceFile())) continue;
      for (const member of declaration.members) {
        if (ts.isConstructorDeclaration(member) && member.body) targets.push(member);
        if (ts.isPropertyDeclaration(member) && member.initializer && !isFunctionLike(skipOuter(member.initializer))) {
          targets.push(member);
        }
      }
    }
    return targets;
  }

  /**
   * A member of an interface or type literal, called: every class or object literal member of that
   * name in the sources whose class or object is assignable to the interface. A data property (no
   * call signature) has none.
   */
  private implementationsOf(
    member: ts.Symbol,
    declaration: ts.SignatureDeclarationBase | ts.PropertySignature,
  ): ts.Node[] {
    const known = this.implementations.get(declaration);
    if (known) return known;
    const found: ts.Node[] = [];
    this.implementations.set(declaration, found);
    const memberType = this.checker.getTypeOfSymbolAtLocation(member, declaration);
    if (ts.isPropertySignature(declaration) && memberType.getCallSignatures().length === 0) return found;
    const ownerType = this.checker.getTypeAtLocation(declaration.parent);
    for (const { owner, body } of this.membersNamed().get(member.name) ?? []) {
      if (this.isAssignable(owner, ownerType)) found.push(body);
    }
    return found;
  }

  /** Every function-valued member of a class or object literal in the sources, by name (built once). */
  private membersNamed(): Map<
    string,
    { owner: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression; body: ts.Node }[]
  > {
    if (this.members) return this.members;
    const members = new Map<string, { owner: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression; body: ts.Node }[]>();
    const visit = (node: ts.Node): void => {
      if (ts.isClassLike(node) || ts.isObjectLiteralExpression(node)) {
        const list: readonly ts.Node[] = ts.isObjectLiteralExpression(node) ? node.properties : node.members;
        for (const candidate of list) {
          const name = (candidate as ts.Node & { name?: ts.Node }).name;
          const body = this.bodyOf(candidate);
          if (!body || !name || !(ts.isIdentifier(name) || ts.isPrivateIdentifier(name))) continue;
          members.set(name.text, [...(members.get(name.text) ?? []), { owner: node, body }]);
        }
      }
      ts.forEachChild(node, visit);
    };
    for (const file of this.sources) visit(file);
    this.members = members;
    return members;
  }

  private isAssignable(node: ts.ClassLikeDeclaration | ts.ObjectLiteralExpression, target: ts.Type): boolean {
    const source = ts.isObjectLiteralExpression(node)
      ? this.checker.getTypeAtLocation(node)
      : node.name
        ? this.checker.getDeclaredTypeOfSymbol(this.checker.getSymbolAtLocation(node.name) as ts.Symbol)
        : this.checker.getTypeAtLocation(node);
    return this.checker.isTypeAssignableTo(source, target);
  }

  private nameOf(node: ts.Node): string {
    const named = node as ts.Node & { name?: ts.Node };
    let name = named.name && ts.isIdentifier(named.name) ? named.name.text : undefined;
    if (!name && (ts.isArrowFunction(node) || ts.isFunctionExpression(node))) {
      const holder = node.parent;
      if (
        holder &&
        (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder))
      ) {
        name = holder.name.getText();
      }
    }
    if (ts.isConstructorDeclaration(node)) name = 'constructor';
    const owner = ts.findAncestor(node.parent, (n) => ts.isClassLike(n));
    const ownerName = owner && ts.isClassLike(owner) && owner.name ? `${owner.name.text}.` : '';
    return `${ownerName}${name ?? '(function)'}`;
  }

  where(node: ts.Node): string {
    const file = node.getSourceFile();
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    return `${relative(REPO_DIR, file.fileName)}:${line + 1}`;
  }

  /** The action id of a `route` property: the `id` literal of the route contract's type. */
  private routeId(route: ts.Node): string | null {
    const type = this.checker.getTypeAtLocation(route);
    const id = type.getProperty('id');
    if (!id) return null;
    const idType = this.checker.getTypeOfSymbolAtLocation(id, route);
    return idType.isStringLiteral() ? idType.value : null;
  }
}

/** A function of the server's sources, by file (under `packages/server/src/`) and name. */
export interface SourceFunction {
  file: string;
  function: string;
}

/** The server's sources read once: the codes each action's handler, or any named function, can raise. */
export interface ServerAnalysis extends RaisedCodes {
  /** The codes reachable from these functions (a factory's nested functions included). */
  codesFrom(sources: readonly SourceFunction[]): RaisedCode[];
}

/** Reads the server's sources (a type-checked program: about a minute on a loaded machine). */
export function analyseServer(): ServerAnalysis {
  const program = createProgram();
  const graph = new CallGraph(program);
  const byAction = new Map<string, RaisedCode[]>();
  const unreadActions: string[] = [];
  for (const action of graph.actions()) {
    if (!action.id) unreadActions.push(action.where);
    else byAction.set(action.id, [...(byAction.get(action.id) ?? []), ...graph.codesFrom(action.handler)]);
  }
  return {
    byAction,
    get opaque() {
      return [...graph.opaque].sort();
    },
    unreadActions,
    codesFrom(sources) {
      return sources.flatMap((source) => {
        const file = program.getSourceFile(join(SERVER_DIR, 'src', source.file));
        const declaration = file && findFunction(file, source.function);
        if (!declaration) throw new Error(`No function ${source.function} in src/${source.file}`);
        return graph.codesFrom(declaration);
      });
    },
  };
}
