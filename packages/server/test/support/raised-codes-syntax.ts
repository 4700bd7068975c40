/** Syntax helpers of the raised-codes walk (test/support/raised-codes.ts). */
import ts from 'typescript';

export type FunctionLike = ts.FunctionLikeDeclaration;

/** A function with a body of its own kind (declaration, method, arrow, expression, constructor, accessor). */
export function isFunctionLike(node: ts.Node): node is FunctionLike {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The value of a property of an object literal (`handler`, `route`). */
export function property(literal: ts.ObjectLiteralExpression, name: string): ts.Node | undefined {
  for (const element of literal.properties) {
    if (element.name && ts.isIdentifier(element.name) && element.name.text === name) {
      if (ts.isPropertyAssignment(element)) return element.initializer;
      if (ts.isShorthandPropertyAssignment(element)) return element.name;
      if (ts.isMethodDeclaration(element)) return element;
    }
  }
  return undefined;
}

/** An expression without its parentheses and `as`/`satisfies`. */
export function skipOuter(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current)) {
    current = current.expression;
  }
  return current;
}

/** A top-level function declaration, or a `const name = (...) =>` of the file. */
export function findFunction(file: ts.SourceFile, name: string): ts.Node | undefined {
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const initializer = declaration.initializer && skipOuter(declaration.initializer);
        if (
          ts.isIdentifier(declaration.name) &&
          declaration.name.text === name &&
          initializer &&
          isFunctionLike(initializer)
        ) {
          return initializer;
        }
      }
    }
  }
  return undefined;
}
